// The build-dependent suite: what only the built worker can show (the entry's headers and
// redirects, the HTML cache, the document stream, whole pages over SELF.fetch), in workerd with a
// real local D1 that has every migration applied. Its worker is server.ts over the production
// server build, so `npm run build` must run first (npm test does). Loaders, actions and server
// features without the entry belong in tests/server/ (vitest.server.config.ts: no build).
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";
import { workerdTest, workersPool } from "./tests/fixtures/workers-pool";

export default defineConfig({
  plugins: [workersPool("./worker/server.ts")],
  resolve: { alias: aliases() },
  test: {
    ...workerdTest,
    include: ["tests/worker/**/*.test.ts"],
    globalSetup: ["./tests/worker/global-setup.ts"],
    // Three at a time: npm test runs the Node suite beside it.
    maxWorkers: 3,
  },
});
