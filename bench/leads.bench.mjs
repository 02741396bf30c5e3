// Leads at scale (issue 5): with BENCH_LEADS (default 100 000) leads in the local D1,
// - 1 000 concurrent signups for 500 distinct e-mails (each twice, in two spellings) must leave
//   exactly 500 rows and answer only 201 or 409;
// - the CSV export of every lead must complete with the worker's memory flat (it streams);
// - the stats and dashboard loaders are timed in the worker (Server-Timing) against pages that
//   read no data, as ratios (the machine is shared; absolute times drift, ratios less).
import { execFileSync, spawnSync } from "node:child_process";
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureDevVars, ROOT } from "../scripts/lib/config.mjs";
import { build, freePort, migrate, startWorker } from "../scripts/lib/local-worker.mjs";
import { benchFixtures } from "./lib/fixtures.mjs";

const LEADS = Number(process.env.BENCH_LEADS || 100_000);
const DISTINCT = 500;
/** Connections for the judged signup run (see the table's note). */
const POOL = 100;
const SAMPLES = Number(process.env.BENCH_RENDER_SAMPLES || 40);
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** The workerd process under `pid` (wrangler → workerd), for its resident memory. */
function findWorkerd(pid) {
  const children = spawnSync("ps", ["-o", "pid=,comm=", "--ppid", String(pid)], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/));
  for (const [child, comm] of children) {
    if (comm === "workerd") return Number(child);
    const found = findWorkerd(child);
    if (found) return found;
  }
  return null;
}

const rssKiB = (pid) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? NaN);
const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;

function d1Count(persistTo, where) {
  const out = execFileSync(
    resolve(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", `SELECT COUNT(*) AS n FROM leads ${where}`],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "ignore"] },
  );
  return JSON.parse(out)[0].results[0].n;
}

/** POST with Node's http client over `agent` (a bounded pool of keep-alive sockets). */
function postJson(agent, url, body) {
  const { hostname, port } = new URL(url);
  return new Promise((resolvePost) => {
    const req = http.request(
      { host: hostname, port, path: "/api/leads", method: "POST", agent, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        // Our worker's answers carry the CSP; wrangler dev's own proxy errors do not.
        res.on("end", () => resolvePost({ status: res.statusCode, fromWorker: Boolean(res.headers["content-security-policy"]) }));
      },
    );
    req.on("error", () => resolvePost({ status: "network error", fromWorker: false }));
    req.end(body);
  });
}

/**
 * 1 000 signups issued at once: 500 addresses, each in two spellings, both in flight together.
 * They go over `sockets` keep-alive connections (HTTP/1.1 has one request per connection at a time).
 */
async function concurrentSignups(url, persistTo, { sockets, tag }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const spellings = (i) => [`Bench.${tag}.${i}@Example.com`, ` bench.${tag}.${i}@EXAMPLE.COM `];
  const bodies = Array.from({ length: DISTINCT }, (_, i) => spellings(i))
    .flat()
    .map((email, n) => JSON.stringify({ email, firstName: "Bench", source: n % 2 ? "footer" : "popup" }));
  const started = performance.now();
  const answers = await Promise.all(bodies.map((body) => postJson(agent, url, body)));
  const wall = performance.now() - started;
  agent.destroy();
  const count = (pred) => answers.filter(pred).length;
  return {
    requests: bodies.length,
    rows: d1Count(persistTo, `WHERE email LIKE 'bench.${tag.toLowerCase()}.%'`),
    created: count((a) => a.status === 201),
    repeats: count((a) => a.status === 409),
    workerFiveXX: count((a) => a.fromWorker && a.status >= 500),
    proxyFiveXX: count((a) => !a.fromWorker && a.status >= 500),
    networkErrors: count((a) => a.status === "network error"),
    wall,
  };
}

function signupTable(pooled, unpooled) {
  const pass = pooled.rows === DISTINCT && pooled.created === DISTINCT && pooled.repeats === DISTINCT;
  const other = (r) => r.requests - r.created - r.repeats;
  const row = (name, f, goal) => [name, f(pooled), f(unpooled), goal];
  return {
    title: `Concurrent signups: ${pooled.requests} requests issued at once, ${DISTINCT} distinct e-mails × 2 spellings`,
    columns: ["metric", `${POOL} connections`, `${pooled.requests} connections`, "goal"],
    rows: [
      row("rows stored", (r) => r.rows, DISTINCT),
      row("201 Created", (r) => r.created, DISTINCT),
      row("409 Email already subscribed", (r) => r.repeats, DISTINCT),
      row("5xx from the worker", (r) => r.workerFiveXX, 0),
      row("anything else", other, 0),
      row("  of which 503 from wrangler dev's proxy", (r) => r.proxyFiveXX, ""),
      row("  of which network errors", (r) => r.networkErrors, ""),
      row("wall time", (r) => `${r.wall.toFixed(0)} ms`, ""),
      ["result", pass ? "pass" : "FAIL", unpooled.workerFiveXX === 0 && unpooled.rows <= DISTINCT ? "no 5xx from the worker, no duplicate" : "FAIL", "pass"],
    ],
    notes: [
      `The goal is judged on the ${POOL}-connection run. With ${pooled.requests} simultaneous sockets, wrangler dev's own proxy (not deployed; ProxyWorker in wrangler) resets some connections and answers them "503 Your worker restarted mid-request"; those requests may never reach the worker, so that column can miss rows, but the worker itself answers only 201 or 409 and never stores a duplicate.`,
    ],
  };
}

/** One download of the export, with workerd's resident memory sampled while it runs. */
async function downloadCsv(url, cookie, workerd) {
  const before = rssKiB(workerd);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKiB(workerd));
  }, 25);
  const started = performance.now();
  const res = await fetch(`${url}/admin/leads.csv`, { headers: { Cookie: cookie } });
  const ttfb = performance.now() - started;
  if (res.status !== 200) throw new Error(`CSV export answered ${res.status}`);
  let bytes = 0;
  let lines = 0;
  let chunks = 0;
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    chunks++;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) lines++;
  }
  const total = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssKiB(workerd));
  return { before, peak, growth: peak - before, bytes, rows: lines - 1, chunks, ttfb, total };
}

/**
 * The export twice: local D1 runs inside workerd, so the first pass also grows SQLite's page cache
 * by reading the whole table; the second pass shows what the export itself holds.
 */
async function csvExport(url, cookie, workerd, expectedRows) {
  const first = await downloadCsv(url, cookie, workerd);
  const second = await downloadCsv(url, cookie, workerd);
  const fileMiB = second.bytes / 1024 / 1024;
  const row = (name, f, goal = "") => [name, f(first), f(second), goal];
  const pass = first.rows === expectedRows && second.rows === expectedRows && second.growth < second.bytes / 1024 / 4;
  return {
    title: `CSV export of every lead (${expectedRows.toLocaleString("en-US")} in D1)`,
    columns: ["metric", "1st download", "2nd download", "goal"],
    rows: [
      row("data rows", (r) => r.rows.toLocaleString("en-US"), expectedRows.toLocaleString("en-US")),
      row("file size", (r) => mib(r.bytes / 1024)),
      row("network chunks", (r) => r.chunks, "many (streamed)"),
      row("time to first byte", (r) => `${r.ttfb.toFixed(0)} ms`),
      row("total time", (r) => `${r.total.toFixed(0)} ms`),
      row("workerd RSS before", (r) => mib(r.before)),
      row("workerd RSS peak during", (r) => mib(r.peak)),
      row("RSS growth", (r) => `${mib(r.growth)} (${(r.growth / 1024 / fileMiB).toFixed(2)} × file)`, "2nd: < 0.25 × file"),
      ["result", pass ? "pass" : "FAIL", "", "pass"],
    ],
    notes: [
      "Local D1 is SQLite inside the same workerd process: the first download's growth is mostly SQLite reading the 100 000-row table into its page cache.",
    ],
  };
}

/** Mean time in the worker (Server-Timing) over SAMPLES requests. */
async function workerMs(url, headers) {
  let sum = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    sum += Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1]);
  }
  return sum / SAMPLES;
}

async function loaderTimes(url, cookie) {
  const doc = { "User-Agent": BOT_UA, Accept: "text/html", Cookie: cookie };
  const api = { Cookie: cookie };
  // Baselines carry the same admin session, so the ratio is what the lead data costs.
  const pairs = [
    ["GET /api/leads/stats", `${url}/api/leads/stats`, api, "GET /api/auth/user", `${url}/api/auth/user`, api],
    ["GET /api/leads (100 newest)", `${url}/api/leads`, api, "GET /api/auth/user", `${url}/api/auth/user`, api],
    ["/admin/leads (whole document)", `${url}/admin/leads`, doc, "/legal (no data)", `${url}/legal`, doc],
  ];
  const rows = [];
  for (const [name, target, headers, baseName, base, baseHeaders] of pairs) {
    await workerMs(target, headers); // warm
    const t = await workerMs(target, headers);
    const b = await workerMs(base, baseHeaders);
    rows.push([name, t.toFixed(2), baseName, b.toFixed(2), (t / b).toFixed(2)]);
  }
  return {
    title: `Loaders with ${LEADS.toLocaleString("en-US")} leads: mean time in the worker over ${SAMPLES} requests (Server-Timing)`,
    columns: ["request", "ms", "same session, no lead data", "ms", "ratio"],
    rows,
  };
}

export default async function leadsBench() {
  ensureDevVars();
  if (process.env.SKIP_BUILD !== "1") build();
  const persistTo = mkdtempSync(join(tmpdir(), "afx-bench-leads-"));
  migrate(persistTo);
  const fixtures = await benchFixtures({ persistTo, leads: LEADS });
  const port = await freePort();
  const worker = await startWorker({
    port,
    persistTo,
    // Every bench client is 127.0.0.1: the per-client limit would turn the race into 429s.
    vars: { SITE_URL: `http://localhost:${port}`, LEADS_RATE_LIMIT: "1000000/60", ...fixtures.vars },
    stdio: "ignore",
  });
  try {
    const pooled = await concurrentSignups(worker.url, persistTo, { sockets: POOL, tag: "Pool" });
    const unpooled = await concurrentSignups(worker.url, persistTo, { sockets: Infinity, tag: "Burst" });
    const tables = [signupTable(pooled, unpooled)];
    const cookie = await fixtures.adminCookie?.(worker.url);
    if (!cookie) {
      tables.push({ title: "CSV export and loader times", columns: ["note"], rows: [["n/a: no admin sign-in in this build"]] });
      return tables;
    }
    const workerd = findWorkerd(worker.child.pid);
    if (!workerd) throw new Error("workerd process not found");
    const leads = d1Count(persistTo, "");
    tables.push(await csvExport(worker.url, cookie, workerd, leads));
    tables.push(await loaderTimes(worker.url, cookie));
    return tables;
  } finally {
    await worker.stop();
    await fixtures.stop?.();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
