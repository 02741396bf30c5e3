// Plain Node tests: size budgets over the build output, the local OpenID provider; no browser.
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";

export default defineConfig({
  resolve: {
    alias: {
      ...aliases(),
      // The renderer workerd resolves (its `worker` condition): app/entry.server.tsx rendered in
      // Node by tests/node/data-protocol.test.ts. Node's own build has no renderToReadableStream.
      "react-dom/server": "react-dom/server.browser",
    },
  },
  test: {
    include: ["tests/node/**/*.test.ts"],
    environment: "node",
    // Two files at a time (vitest's default on 2 cores is one): deploy.test.ts spends its ~100 s
    // waiting on wrangler processes, and the other files fit beside it.
    maxWorkers: 2,
    // Imports its schema as JSON without an import attribute, which only a bundler accepts.
    server: { deps: { inline: ["@actions/workflow-parser"] } },
  },
});
