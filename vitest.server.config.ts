// The inner loop's second half: route modules' loaders and actions, guards, validation and server
// features, called directly (`loader({ request, params, context })`) in workerd with a real local
// D1, WITHOUT a build: its worker is worker/background.ts (the queue consumer and Cron Trigger),
// which imports no server build. `npm run test:fast` runs it beside tests/unit/ in seconds.
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/lib/alias.mjs";
import { workerdTest, workersPool } from "./tests/fixtures/workers-pool";

export default defineConfig({
  plugins: [workersPool("./worker/background.ts")],
  resolve: { alias: aliases() },
  test: {
    ...workerdTest,
    include: ["tests/server/**/*.test.ts", "tests/mail/**/*.test.ts"],
    globalSetup: ["./tests/worker/global-setup.ts"],
    maxWorkers: 2,
  },
});
