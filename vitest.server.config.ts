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
    // Two workerds even in the inner loop: one spent 22 % less CPU (26-27 s against 34-36 s for
    // test:fast) but lost 5 s of wall on a machine at a load average of 3-5 (issue 57).
    maxWorkers: 2,
  },
});
