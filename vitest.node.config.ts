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
    // Imports its schema as JSON without an import attribute, which only a bundler accepts.
    server: { deps: { inline: ["@actions/workflow-parser"] } },
  },
});
