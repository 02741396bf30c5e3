import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import remixConfig from "./remix.config.js";
import { getLoadContext } from "./worker/load-context";
import { configNames } from "./scripts/lib/config.mjs";
import { aliases } from "./scripts/lib/alias.mjs";
import { nodeSockets } from "./scripts/lib/node-sockets.mjs";
import { shellChunk } from "./scripts/shell-chunk";
import { compileHints } from "./scripts/compile-hints";

/**
 * `vite dev` reads wrangler.toml [vars] and .dev.vars; a variable set in the process environment
 * wins for the run, as with `npm start` (scripts/dev.mjs passes the local provider's issuer so).
 */
const overrides = Object.fromEntries(
  configNames().flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
);
const devLoadContext: typeof getLoadContext = ({ request, context }) => {
  // No queue consumer runs under Vite: without the binding, announceMail sends right after the response.
  const { MAIL_QUEUE: _noConsumer, ...bindings } = context.cloudflare.env;
  const env = { ...bindings, ...overrides } as Env;
  return getLoadContext({ request, context: { cloudflare: { ...context.cloudflare, env } } });
};

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    // Only for `vite dev`: in a build its platform proxy keeps the process alive after the build.
    command === "serve" ? cloudflareDevProxyVitePlugin({ getLoadContext: devLoadContext }) : null,
    // Only for `vite dev`, where the app runs in Node: `cloudflare:sockets` (ours, worker-mailer's).
    command === "serve" ? nodeSockets() : null,
    remix(remixConfig),
    tailwindcss(),
    shellChunk(),
    compileHints(),
  ],
  resolve: { alias: aliases() },
  // One copy of each licence notice per file (esbuild "eof" dedupes them), not one per module.
  esbuild: { legalComments: "eof" },
  build: {
    minify: true,
    rollupOptions: {
      // The runtime's own module: left as an import, which wrangler's bundler keeps for workerd.
      external: ["cloudflare:sockets"],
      // Remix writes a client chunk for every route: a resource route's (no component) is empty by
      // design, and Rollup's "Generated an empty chunk" for each of them says nothing to act on.
      onwarn(warning, warn) {
        if (warning.code !== "EMPTY_BUNDLE") warn(warning);
      },
      // The server chunks need no hoisted bare imports (`import "react"`: they only help a browser
      // fetch early); wrangler's esbuild warns about each one of a side-effect-free package.
      ...(isSsrBuild ? { output: { hoistTransitiveImports: false } } : {}),
    },
  },
  ssr: {
    // Under `vite dev` the app runs in Node: worker-mailer goes through Vite so that its
    // `cloudflare:sockets` import can be pointed at a Node version (scripts/lib/node-sockets.mjs).
    ...(command === "serve" ? { noExternal: ["worker-mailer"] } : {}),
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
}));
