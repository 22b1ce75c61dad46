import type { ReactNode } from "react";
import { preloadModule } from "react-dom";
import type { Assets } from "./assets.ts";
import { AssetsContext } from "./lib/island.tsx";

export function Document(
  { title, assets, children }: { title: string; assets: Assets; children: ReactNode },
) {
  for (const url of assets.imports("ui/client.ts")) preloadModule(url);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={assets.stylesheet} />
        <script type="module" src={assets.client} />
      </head>
      <body>
        <AssetsContext.Provider value={assets}>{children}</AssetsContext.Provider>
      </body>
    </html>
  );
}
