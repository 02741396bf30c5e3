// The inner loop: tests of pure modules (formatting, parsing, cursors, schemas, the cache key...)
// in plain Node, no build, no workerd, no D1: `npm run test:unit` answers in seconds. A test that
// needs a binding, the server build or a real Cache API belongs in tests/worker/ instead. With
// `FAST=1` (npm run test:fast) it also runs the Node suite's source-only checks (no-build.mjs).
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";
import { NO_BUILD_NODE_TESTS } from "./tests/node/no-build.mjs";

export default defineConfig({
  resolve: { alias: aliases() },
  test: {
    include: ["tests/unit/**/*.test.ts", ...(process.env.FAST === "1" ? NO_BUILD_NODE_TESTS : [])],
    environment: "node",
    // Threads sharing their module graph (no isolation per file): the files are pure and set no
    // globals, and this halved the suite's CPU (16 s to 9 s; forks and a fresh graph per file
    // spent it starting Node and importing zod, drizzle and React again).
    pool: "threads",
    isolate: false,
  },
});
