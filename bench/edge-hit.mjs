// A cached page against a static file of its own, in one run (issue 60, decision 120): `node
// bench/edge-hit.mjs [checkout]` (`npm run build` there first; this checkout by default). The
// five pages are visited until the cache answers them; then HIT_ROUNDS (200) requests for `/`
// and as many for one of its own static JS files, alternating, each timed to its last byte from
// Node. Prints both medians and p90s and the ratio (a hit costs about what a file costs when no
// D1 call is on its path). Not part of `npm run bench`: it judges nothing on its own.
import http from "node:http";
import { serveCheckout } from "./lib/checkout.mjs";
import { median } from "./lib/speed.mjs";

const root = process.argv[2] ?? process.cwd();
const ROUNDS = Number(process.env.HIT_ROUNDS || 200);
const PAGES = ["/", "/portfolio", "/investors", "/documents", "/news"];

function timed(url) {
  return new Promise((resolveTimed, reject) => {
    const started = performance.now();
    http
      .get(url, { headers: { Accept: "text/html" } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolveTimed({
            ms: performance.now() - started,
            hit: /desc="hit"/.test(String(res.headers["server-timing"] ?? "")),
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      })
      .on("error", reject);
  });
}

const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const server = await serveCheckout(root);
try {
  let landing = "";
  for (const path of PAGES) {
    for (let i = 0; i < 50; i++) {
      const r = await timed(`${server.url}${path}`);
      if (path === "/") landing = r.body;
      if (r.hit) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const script =
    landing.match(/<script[^>]+src="(\/assets\/[^"]+\.js)"/)?.[1] ?? landing.match(/href="(\/assets\/[^"]+\.js)"/)?.[1];
  if (!script) throw new Error("no static JS file on /");
  const times = { hit: [], file: [] };
  let misses = 0;
  for (let i = 0; i < ROUNDS; i++) {
    for (const which of i % 2 ? ["file", "hit"] : ["hit", "file"]) {
      const r = await timed(`${server.url}${which === "hit" ? "/" : script}`);
      if (which === "hit" && !r.hit) misses++;
      times[which].push(r.ms);
    }
  }
  const [h, f] = [median(times.hit), median(times.file)];
  console.log(`checkout: ${root}\nstatic file: ${script}`);
  console.table([
    { request: "cached /", "median ms": h.toFixed(2), "p90 ms": p90(times.hit).toFixed(2), "not hits": misses },
    { request: "static JS", "median ms": f.toFixed(2), "p90 ms": p90(times.file).toFixed(2), "not hits": "" },
  ]);
  console.log(`cached / ÷ static JS (medians): ${(h / f).toFixed(2)}`);
} finally {
  await server.stop();
}
