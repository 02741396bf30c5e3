// Browser tests: playwright-core drives Debian's Chromium against the production build served by
// wrangler dev on a free port with a throw-away D1 (tests/e2e/global-setup.ts).
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";
import LongestFirst from "./tests/e2e/sequencer";

export default defineConfig({
  resolve: { alias: aliases() },
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["./tests/e2e/global-setup.ts"],
    setupFiles: ["./tests/e2e/failure-evidence.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll gives up after 1 s by default: a page on a loaded 2-core machine can take longer
    // to hydrate or to answer. A poll that passes still returns at once.
    expect: { poll: { timeout: 15_000 } },
    // One worker server for all files; two browsers at a time keep a 2-core machine responsive.
    maxWorkers: 2,
    fileParallelism: true,
    // Longest first (tests/e2e/sequencer.ts): the run ends with short files on both workers.
    sequence: { sequencer: LongestFirst },
  },
});
