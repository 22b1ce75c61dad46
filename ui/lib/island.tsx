import { createContext, type FunctionComponent, useContext } from "react";
import { preloadModule } from "react-dom";
import type { Assets } from "../assets.ts";

export const AssetsContext = createContext<Assets | null>(null);

/**
 * Server side of an island: renders the component into HTML and marks it for ui/client.ts, which
 * loads `src` (its own chunk) and hydrates it with the same props. Props must be JSON.
 */
export function Island<P extends object>(
  { src, component: Component, props }: { src: string; component: FunctionComponent<P>; props: P },
) {
  const assets = useContext(AssetsContext);
  if (!assets) throw new Error("Island rendered outside a Document");
  // React hoists these into <head> as <link rel="modulepreload">: the island's chunk and every chunk it
  // imports load at once with the page, not one after another as each import is discovered.
  for (const url of [assets.url(src), ...assets.imports(src)]) preloadModule(url);
  return (
    <div className="island" data-island={src} data-src={assets.url(src)} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}
