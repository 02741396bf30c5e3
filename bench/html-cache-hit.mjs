// A cached page's worker time, two builds side by side in one run (issue 50, decision 090):
// `node bench/html-cache-hit.mjs <checkout A> <checkout B> [paths…]` (`npm run build` in each
// first). Each build serves its own checkout on a fresh local D1; a page is requested until the
// cache answers it (`Server-Timing: worker;desc="hit"`), then HIT_ROUNDS (200) hits per build,
// alternating builds request by request, and the median and p90 of each hit's `worker;dur`
// (the worker's own time before the response starts) are printed with B's ratio to A's.
// Not part of `npm run bench`: it judges nothing on its own.
import http from "node:http";
import { serveCheckout } from "./lib/checkout.mjs";
import { median } from "./lib/speed.mjs";

const [rootA, rootB, ...rest] = process.argv.slice(2);
if (!rootA || !rootB) throw new Error("usage: node bench/html-cache-hit.mjs <checkout A> <checkout B> [paths…]");
const paths = rest.length ? rest : ["/", "/portfolio", "/subsidiary/fiscal-me"];
const ROUNDS = Number(process.env.HIT_ROUNDS || 200);

// A crawler's request, as bench/pages.bench.mjs makes it: the complete document, its own cache entry.
const HEADERS = {
  "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  Accept: "text/html",
};

/** One request's worker time and whether it was a hit. */
function timed(url) {
  return new Promise((resolveTimed, reject) => {
    http
      .get(url, { headers: HEADERS }, (res) => {
        res.resume();
        res.on("end", () => {
          const entry = String(res.headers["server-timing"] ?? "").match(/worker;dur=([\d.]+);desc="(\w+)"/);
          resolveTimed({ dur: Number(entry?.[1] ?? NaN), hit: entry?.[2] === "hit" });
        });
      })
      .on("error", reject);
  });
}

async function untilHit(url) {
  for (let i = 0; i < 50; i++) {
    if ((await timed(url)).hit) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url}: never served from the cache`);
}

const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

const builds = [
  { name: "A", server: await serveCheckout(rootA) },
  { name: "B", server: await serveCheckout(rootB) },
];
try {
  const rows = [];
  for (const path of paths) {
    for (const b of builds) await untilHit(`${b.server.url}${path}`);
    const times = { A: [], B: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const b of i % 2 ? [...builds].reverse() : builds) {
        const t = await timed(`${b.server.url}${path}`);
        if (t.hit) times[b.name].push(t.dur);
      }
    }
    const [a, b] = [median(times.A), median(times.B)];
    rows.push({
      path,
      "A median ms": a.toFixed(2),
      "A p90 ms": p90(times.A).toFixed(2),
      "B median ms": b.toFixed(2),
      "B p90 ms": p90(times.B).toFixed(2),
      "B / A": (b / a).toFixed(2),
      hits: `${times.A.length}/${times.B.length}`,
    });
  }
  console.log(`A: ${rootA}\nB: ${rootB}`);
  console.table(rows);
} finally {
  for (const b of builds) await b.server.stop();
}
