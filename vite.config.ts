import {
  vitePlugin as remix,
  cloudflareDevProxyVitePlugin,
} from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";
import { getLoadContext } from "./load-context";
import { factSheets } from "./scripts/fact-sheets";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command }) => ({
  plugins: [
    // Only for `vite dev`: in a build it keeps the process alive (see DESIGN.md pitfalls).
    command === "serve" ? cloudflareDevProxyVitePlugin({ getLoadContext }) : null,
    remix(remixConfig),
    tailwindcss(),
    factSheets(),
  ],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: { minify: true },
  ssr: {
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
}));
