import { createElement, type FunctionComponent, type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";

/** Renders its island and reports once React has hydrated it (effects run after hydration). */
function Hydrated({ done, children }: { done: () => void; children?: ReactNode }) {
  useEffect(done, []);
  return children;
}

const islands = [...document.querySelectorAll<HTMLElement>("[data-island]")];
let pending = islands.length;
const oneDone = () => {
  if (--pending === 0) document.body.dataset.hydrated = "true";
};
if (pending === 0) document.body.dataset.hydrated = "true";

for (const el of islands) {
  import(/* @vite-ignore */ el.dataset.src!).then((mod: { default: FunctionComponent<object> }) => {
    const props = JSON.parse(el.dataset.props ?? "{}");
    hydrateRoot(el, createElement(Hydrated, { done: oneDone }, createElement(mod.default, props)));
  }).catch((err) => {
    console.error("island failed to load", el.dataset.island, err);
    oneDone();
  });
}
