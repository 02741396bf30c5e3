// Plain Node tests: size budgets over the build output, the local OpenID provider; no browser.
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";

export default defineConfig({
  resolve: { alias: aliases() },
  test: { include: ["tests/node/**/*.test.ts"], environment: "node" },
});
