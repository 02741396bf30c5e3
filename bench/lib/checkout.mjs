// Another checkout's build, served as the benches serve this one: its own scripts and fixtures,
// on a fresh local D1 (bench/compare-builds.mjs, bench/compare-screenshots.mjs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Serves `root`'s `build/` (run `npm run build` there first); { url, stop }. */
export async function serveCheckout(root) {
  const from = (file) => import(pathToFileURL(resolve(root, file)).href);
  const { migrate } = await from("scripts/lib/local-worker.mjs");
  const { benchFixtures, startBenchWorker } = await from("bench/lib/fixtures.mjs");
  const persistTo = mkdtempSync(join(tmpdir(), "afx-checkout-"));
  migrate(persistTo);
  const fixtures = await benchFixtures({ persistTo, leads: 0 });
  const worker = await startBenchWorker({ persistTo, fixtures });
  return {
    url: worker.url,
    async stop() {
      await worker.stop();
      await fixtures?.stop?.();
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}
