// Each sitemap page's time to first byte with every D1 call 50 ms away (a far replica; issue 60,
// decision 122): `node bench/far-replica.mjs` (`npm run build` first). The local server's
// `/__fault/d1-delay` (worker/local-faults.ts) makes every D1 call wait DELAY_MS (50) first; each
// page is rendered (a query the cache has not seen) anonymously and as a signed-in member, ROUNDS
// (3) times, and the median TTFB printed beside the page's D1 round trips that it implies.
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../scripts/lib/local-worker.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";
import { median } from "./lib/speed.mjs";

const DELAY = Number(process.env.DELAY_MS || 50);
const ROUNDS = Number(process.env.ROUNDS || 3);

function ttfb(url, cookie) {
  return new Promise((resolveTtfb, reject) => {
    const started = performance.now();
    const headers = { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) };
    http
      .get(url, { headers }, (res) => {
        const first = performance.now() - started;
        res.resume();
        res.on("end", () => resolveTtfb({ ms: first, status: res.statusCode }));
      })
      .on("error", reject);
  });
}

const persistTo = mkdtempSync(join(tmpdir(), "afx-far-"));
migrate(persistTo);
const fixtures = await benchFixtures({ persistTo, leads: 0 });
const worker = await startBenchWorker({ persistTo, fixtures });
try {
  const member = await fixtures.memberCookie?.(worker.url);
  const sitemap = await (await fetch(`${worker.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const set = await fetch(`${worker.url}/__fault/d1-delay`, { method: "POST", body: String(DELAY) });
  if (!set.ok) throw new Error(`the server has no D1 delay switch (${set.status})`);
  const rows = [];
  for (const path of paths) {
    const anon = [];
    const mem = [];
    for (let i = 0; i < ROUNDS; i++) {
      anon.push((await ttfb(`${worker.url}${path}?far=${Date.now()}-${i}`)).ms);
      if (member) mem.push((await ttfb(`${worker.url}${path}`, member)).ms);
    }
    rows.push({
      path,
      "anonymous TTFB ms": median(anon).toFixed(0),
      "≈ trips": Math.round(median(anon) / DELAY),
      "member TTFB ms": member ? median(mem).toFixed(0) : "(no provider)",
      "≈ member trips": member ? Math.round(median(mem) / DELAY) : "",
    });
  }
  await fetch(`${worker.url}/__fault/d1-delay`, { method: "POST", body: "0" });
  console.log(`every D1 call ${DELAY} ms away; renders (not cache hits); medians of ${ROUNDS}`);
  console.table(rows);
} finally {
  await worker.stop();
  await fixtures?.stop?.();
  rmSync(persistTo, { recursive: true, force: true });
}
