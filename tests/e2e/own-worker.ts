import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, migrate, startWorker } from "../../scripts/lib/local-worker.mjs";

/**
 * A `wrangler dev` of one test file's own, on a migrated throw-away D1, for a file that breaks
 * what its worker depends on (the feed, the SMTP server) or runs it differently (the mail
 * transport): the suite's shared worker keeps serving the other files. `stop()` keeps the logs
 * when it died during the run, and says where they are.
 */
export async function startOwnWorker(name: string, vars: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), `afx-e2e-${name}-`));
  const persistTo = join(dir, "d1");
  const logFile = join(dir, "wrangler.log");
  mkdirSync(persistTo);
  migrate(persistTo);
  const port = await freePort();
  const worker = await startWorker({
    port,
    persistTo,
    vars: { SITE_URL: `http://localhost:${port}`, ...vars },
    production: true, // as the suite's shared worker (global-setup.ts)
    logFile,
    stdio: process.env.E2E_VERBOSE ? "inherit" : "ignore",
  });
  return {
    url: worker.url as string,
    async stop() {
      const died = worker.child.exitCode !== null || worker.child.signalCode !== null;
      await worker.stop();
      if (died) console.error(`[${name} worker] wrangler dev died during the run; its log: ${logFile}`);
      rmSync(died ? persistTo : dir, { recursive: true, force: true });
    },
  };
}

/** A worker startOwnWorker started. */
export type OwnWorker = Awaited<ReturnType<typeof startOwnWorker>>;
