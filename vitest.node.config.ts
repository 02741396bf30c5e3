// Plain Node tests over the build output (size budgets); no server, no browser.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["tests/node/**/*.test.ts"], environment: "node" },
});
