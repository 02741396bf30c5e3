// The inner loop: tests of pure modules (formatting, parsing, cursors, schemas, the cache key...)
// in plain Node, no build, no workerd, no D1: `npm run test:unit` answers in seconds. A test that
// needs a binding, the server build or a real Cache API belongs in tests/worker/ instead.
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";

export default defineConfig({
  resolve: { alias: aliases() },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
  },
});
