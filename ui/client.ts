import { createElement, type FunctionComponent, type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { showFlash } from "./lib/events.ts";
import { TimeZoneContext } from "./lib/time_zone.tsx";
import { DEFAULT_TIME_ZONE } from "../lib/format.ts";

/** Renders its island and reports once React has hydrated it (effects run after hydration). */
function Hydrated({ done, children }: { done: () => void; children?: ReactNode }) {
  useEffect(done, []);
  return children;
}

const islands = [...document.querySelectorAll<HTMLElement>("[data-island]")];
let pending = islands.length;
/** Every island hydrated: the page is ready, and a message left by the previous page is shown. */
const ready = () => {
  document.body.dataset.hydrated = "true";
  showFlash();
};
const oneDone = () => {
  if (--pending === 0) ready();
};
if (pending === 0) ready();

// The zone the server rendered with (ui/document.tsx), so the first client render matches its HTML.
const timeZone = document.documentElement.dataset.timeZone || DEFAULT_TIME_ZONE;

for (const el of islands) {
  import(/* @vite-ignore */ el.dataset.src!).then((mod: { default: FunctionComponent<object> }) => {
    const props = JSON.parse(el.dataset.props ?? "{}");
    const island = createElement(mod.default, props);
    const zoned = createElement(TimeZoneContext.Provider, { value: timeZone }, island);
    hydrateRoot(el, createElement(Hydrated, { done: oneDone }, zoned));
  }).catch((err) => {
    console.error("island failed to load", el.dataset.island, err);
    oneDone();
  });
}
