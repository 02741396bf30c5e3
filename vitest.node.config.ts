// Plain Node tests: size budgets over the build output, the local OpenID provider; no browser.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["tests/node/**/*.test.ts"], environment: "node" },
});
