// The size the site claims (issue 60): the admin's heavy requests and one investor alert at
// 1 000 leads and at 100 000 (the same shares: 67 % confirmed newsletter subscribers, 10 %
// investor-alert subscribers), each size in its own local D1 and its own built worker (wrangler
// dev, React's production build, a local SMTP inbox), both up at once and measured in turns.
//   nice node bench/at-size.mjs          (builds first; SKIP_BUILD=1 to reuse build/)
//   AT_SIZE_LEADS=1000,100000 AT_SIZE_RUNS=3   (the defaults)
// Each request: one warm-up, then AT_SIZE_RUNS timed runs, the sizes alternating (median wall time to the last byte;
// the workerd process's CPU, /proc, which also holds the local D1's SQLite), then one run under
// the isolate's CPU profiler with its JS heap polled (busy samples: a ceiling on the worker's
// CPU, as bench/cpu-limit.mjs says). The alert: the news form's publish with its alert, the time to
// the last mail in the inbox (maildev's clock), the CPU from the publish until its invocation's
// share of the fan-out (CHUNKS_PER_RUN × CHUNK subscribers, alerts.server.ts) is in the outbox
// (with the first queue batches' sending meanwhile: a ceiling), then per queue invocation to the
// last mail (batches of 20 mails, and the fan-out's steps handed on among them: a mean). Both CPU figures are ceilings
// (the isolate's counts waits for a core on a loaded machine, the process's holds SQLite), so the
// lower is judged against production's [limits] cpu_ms (wrangler.toml), the heap against 128 MB; paged views within 2× their time at the
// smallest size. Prints one table. Not part of `npm run bench` (figures for bench/NOTES.md).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureDevVars, ROOT } from "../scripts/lib/config.mjs";
import { build, freePort, migrate, triggerScheduled } from "../scripts/lib/local-worker.mjs";
import { startLocalMail } from "../scripts/lib/local-mail.mjs";
import { connectCdp, inspectorUrl } from "./lib/cdp.mjs";
import { topFunctions } from "./lib/cpu-profile.mjs";
import { alertNewsForm, benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";
import { findWorkerd, processCpuMs } from "./lib/worker-cpu.mjs";

const SIZES = (process.env.AT_SIZE_LEADS || "1000,100000").split(",").map(Number);
const RUNS = Number(process.env.AT_SIZE_RUNS || 3);
const CONFIRMED_SHARE = 0.67;
const ALERTS_SHARE = 0.1;
/** Production's CPU limit per invocation ([env.production.limits] cpu_ms). */
const CPU_LIMIT_MS = Number(
  readFileSync(resolve(ROOT, "wrangler.toml"), "utf8").match(
    /^\[env\.production\.limits\]\s*\ncpu_ms\s*=\s*(\d+)/m,
  )?.[1],
);
const MEMORY_LIMIT = 128 * 1024 * 1024;
/** Subscribers one fan-out invocation queues (app/features/alerts/alerts.server.ts). */
const PER_FAN_OUT = (() => {
  const source = readFileSync(resolve(ROOT, "app/features/alerts/alerts.server.ts"), "utf8");
  return Number(source.match(/CHUNKS_PER_RUN = (\d+)/)?.[1]) * Number(source.match(/const CHUNK = (\d+)/)?.[1]);
})();
/** How long to wait for an alert's last mail. */
const ALERT_WAIT_MS = Number(process.env.AT_SIZE_ALERT_WAIT_MS || 1_800_000);
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `run()` under the isolate's sampling profiler, its JS heap polled meanwhile: the busy time and
 * the largest heap seen (garbage included: an upper bound of what was live).
 */
async function observed(cdp, run, { intervalUs = 200 } = {}) {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: intervalUs });
  await cdp.send("Profiler.start");
  let peak = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      peak = Math.max(peak, (await cdp.send("Runtime.getHeapUsage")).usedSize);
      await sleep(50);
    }
  })();
  let result;
  let profile;
  try {
    result = await run();
  } finally {
    done = true;
    await poll;
    ({ profile } = await cdp.send("Profiler.stop"));
  }
  return { result, busy: topFunctions(profile).busy, peak };
}

/** A request read to its last byte. */
async function timed(send) {
  const started = performance.now();
  const res = await send();
  const bytes = (await res.arrayBuffer()).byteLength;
  return { status: res.status, bytes, wall: performance.now() - started };
}

/** The measured requests: [name, paged view?, send()]. */
function requests(url, cookie) {
  const doc = { "User-Agent": BOT_UA, Accept: "text/html", Cookie: cookie };
  const get = (path, headers) => () => fetch(`${url}${path}`, { headers });
  return [
    ["/admin/leads (dashboard, whole document)", true, get("/admin/leads", doc)],
    ["/admin/leads?source=blog (workbench, a source)", true, get("/admin/leads?source=blog", doc)],
    ["/admin/leads?q=grace (workbench, a search: 1 lead in 12)", true, get("/admin/leads?q=grace", doc)],
    ["/admin/leads?q=nobody (workbench, a search matching none)", true, get("/admin/leads?q=nobody", doc)],
    ["/admin/leads.csv (leads CSV, every confirmed)", false, get("/admin/leads.csv", { Cookie: cookie })],
    [
      "hand-off export, scope all (Substack CSV)",
      false,
      () =>
        fetch(`${url}/admin/subscribers/handoff/export`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ format: "substack", scope: "all" }),
        }),
    ],
  ];
}

/**
 * Each request at every size, the sizes alternating within each round (a shared machine's load
 * then weighs on all alike): one warm-up, RUNS timed runs, one profiled run. By request name, the
 * figures at each size.
 */
async function measureRequests(sites) {
  const out = new Map();
  for (const [i, [name, paged]] of requests(sites[0].url, sites[0].cookie).entries()) {
    const sends = sites.map((site) => requests(site.url, site.cookie)[i][2]);
    const walls = sites.map(() => []);
    const cpus = sites.map(() => []);
    for (const [n, send] of sends.entries()) {
      const warm = await timed(send);
      if (warm.status !== 200) throw new Error(`${name} answered ${warm.status} at ${sites[n].leads}`);
    }
    for (let run = 0; run < RUNS; run++)
      for (const [n, send] of sends.entries()) {
        const before = processCpuMs(sites[n].workerd);
        walls[n].push((await timed(send)).wall);
        cpus[n].push(processCpuMs(sites[n].workerd) - before);
      }
    const figures = [];
    for (const [n, send] of sends.entries()) {
      const { result, busy, peak } = await observed(sites[n].cdp, () => timed(send));
      figures.push({
        paged,
        wall: median(walls[n]),
        process: median(cpus[n]),
        isolate: busy,
        peak,
        bytes: result.bytes,
      });
    }
    out.set(name, figures);
    console.error(`[at-size] ${name}: ${figures.map((f) => f.wall.toFixed(0)).join(" vs ")} ms`);
  }
  return out;
}

/** The news item's alert progress as the admin's page reads it ("sent N of M", still queuing). */
async function alertState(url, cookie, title) {
  const res = await fetch(`${url}/admin/news?_data=routes%2Fadmin.news`, { headers: { Cookie: cookie } });
  if (!res.ok) throw new Error(`/admin/news answered ${res.status}`);
  return (await res.json()).items.find((i) => i.title === title)?.alertProgress ?? null;
}

/** Receipt times in the inbox of the mails with `subject`, and how many went to one address twice. */
async function inbox(inboxUrl, subject) {
  const res = await fetch(`${inboxUrl.replace("//localhost:", "//127.0.0.1:")}/email`);
  if (!res.ok) throw new Error(`inbox answered ${res.status}`);
  const times = [];
  const to = new Set();
  for (const m of await res.json())
    if (m.subject === subject)
      for (const r of m.envelope.to) {
        times.push(Date.parse(m.time));
        to.add(r.address);
      }
  return { times, duplicates: times.length - to.size };
}

/** One news item published with its alert to `count` subscribers, followed to its last mail. */
async function measureAlert(count, { url, cookie, cdp, workerd, mail }) {
  const title = `At size ${count} ${Date.now().toString(36)}`;
  const form = new URLSearchParams(alertNewsForm(title));
  const first = Math.min(count, PER_FAN_OUT);
  let cpuStart = processCpuMs(workerd);
  const started = Date.now();
  // The publish's invocation: the request and its share of the fan-out after the response
  // (waitUntil), until that share is in the outbox (the queue's sending has only begun).
  const publish = await observed(
    cdp,
    async () => {
      const res = await fetch(`${url}/admin/news`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
        redirect: "manual",
      });
      await res.arrayBuffer();
      if (res.status !== 303) throw new Error(`publish answered ${res.status}`);
      for (;;) {
        const state = await alertState(url, cookie, title);
        if (state && (state.total >= first || !state.preparing)) return;
        if (Date.now() - started > ALERT_WAIT_MS) throw new Error("the alert's fan-out never began");
        await sleep(200);
      }
    },
    { intervalUs: 500 },
  );
  publish.process = processCpuMs(workerd) - cpuStart;
  publish.wall = Date.now() - started;
  // The rest: the fan-out's steps handed on through the mail queue, among its batches of 20
  // mails (wrangler.toml), and the Cron Trigger's runs; figures per queue invocation.
  let fannedOutAt = null;
  let sentAfterPublish = null;
  cpuStart = processCpuMs(workerd);
  const rest = await observed(
    cdp,
    async () => {
      for (;;) {
        const state = await alertState(url, cookie, title);
        sentAfterPublish ??= state.sent;
        if (!state.preparing) fannedOutAt ??= Date.now();
        if (!state.preparing && state.sent >= state.total) return;
        if (Date.now() - started > ALERT_WAIT_MS) throw new Error(`only ${state.sent} of ${state.total} alerts sent`);
        await sleep(1000);
      }
    },
    { intervalUs: 2000 },
  );
  rest.process = processCpuMs(workerd) - cpuStart;
  const invocations = Math.ceil((count - sentAfterPublish) / 20) + Math.ceil(count / PER_FAN_OUT) - 1;
  let received = { times: [], duplicates: 0 };
  for (let i = 0; i < 30 && received.times.length < count; i++) {
    received = await inbox(mail.inboxUrl, `AFX Holding Group: ${title}`);
    if (received.times.length < count) await sleep(1000);
  }
  return {
    wall: received.times.length ? Math.max(...received.times) - started : NaN,
    arrived: received.times.length,
    duplicates: received.duplicates,
    publish,
    fanOutWall: fannedOutAt - started,
    perQueueInvocation: { isolate: rest.busy / invocations, process: rest.process / invocations },
    peak: Math.max(publish.peak, rest.peak),
  };
}

/** A size's own database, seeded, with its worker, inbox and admin session. */
async function setUp(leads) {
  const persistTo = mkdtempSync(join(tmpdir(), "afx-at-size-"));
  migrate(persistTo);
  const seeding = Date.now();
  const fixtures = await benchFixtures({
    persistTo,
    leads,
    confirmed: Math.round(leads * CONFIRMED_SHARE),
    alerts: Math.round(leads * ALERTS_SHARE),
  });
  console.error(`[at-size] ${leads} leads seeded in ${((Date.now() - seeding) / 1000).toFixed(0)} s`);
  const mail = await startLocalMail({ smtpPort: await freePort(), webPort: await freePort() });
  const inspectorPort = await freePort();
  const worker = await startBenchWorker({
    persistTo,
    fixtures,
    inspectorPort,
    vars: { SMTP_HOST: mail.smtpHost, SMTP_PORT: String(mail.smtpPort) },
  });
  const stop = async () => {
    await worker.stop();
    await fixtures.stop();
    await mail.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
  try {
    const workerd = findWorkerd(worker.child.pid);
    if (!workerd) throw new Error("workerd process not found");
    const cdp = await connectCdp(await inspectorUrl(inspectorPort));
    const cookie = await fixtures.adminCookie(worker.url);
    return { leads, url: worker.url, cookie, cdp, workerd, mail, stop: () => (cdp.close(), stop()) };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The alert at one size, the Cron Trigger every minute meanwhile (as production runs it). */
async function alertAt(site) {
  const cron = setInterval(() => triggerScheduled(site.url).catch(() => {}), 60_000);
  try {
    const alert = await measureAlert(Math.round(site.leads * ALERTS_SHARE), site);
    console.error(`[at-size] ${site.leads}: alert ${(alert.wall / 1000).toFixed(1)} s`);
    return alert;
  } finally {
    clearInterval(cron);
  }
}

const size = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const ms = (n) => `${Math.round(n).toLocaleString("en-US")} ms`;
const mibs = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

ensureDevVars();
if (process.env.SKIP_BUILD !== "1") build();
if (!CPU_LIMIT_MS) throw new Error("wrangler.toml has no [env.production.limits] cpu_ms");
const [smallSize, largeSize] = [SIZES[0], SIZES.at(-1)];
const sites = [];
let measured;
try {
  for (const leads of [smallSize, largeSize]) sites.push(await setUp(leads));
  measured = await measureRequests(sites);
  // One alert at a time: the sending of one would slow the other's.
  measured.set("alert", [await alertAt(sites[0]), await alertAt(sites[1])]);
} finally {
  for (const site of sites) await site.stop();
}
const rows = [];
for (const [name, [little, big]] of measured) {
  const ratio = big.wall / little.wall;
  if (name === "alert") {
    const over = [
      Math.min(big.publish.busy, big.publish.process) > CPU_LIMIT_MS ? "publish CPU" : null,
      Math.min(big.perQueueInvocation.isolate, big.perQueueInvocation.process) > CPU_LIMIT_MS ? "queue CPU" : null,
      big.peak > MEMORY_LIMIT ? "memory" : null,
      big.arrived < Math.round(largeSize * ALERTS_SHARE) || big.duplicates ? "mails missing or twice" : null,
    ].filter(Boolean);
    rows.push([
      `one alert, publish → last mail (${size(smallSize * ALERTS_SHARE)} / ${size(largeSize * ALERTS_SHARE)} subscribers)`,
      `${(little.wall / 1000).toFixed(1)} s`,
      `${(big.wall / 1000).toFixed(1)} s`,
      ratio.toFixed(1),
      `publish + its ${Math.min(largeSize * ALERTS_SHARE, PER_FAN_OUT)} (${(big.publish.wall / 1000).toFixed(1)} s): ${ms(big.publish.busy)} isolate / ${ms(big.publish.process)} process; then per queue invocation (20 mails, or a fan-out step): ${ms(big.perQueueInvocation.isolate)} / ${ms(big.perQueueInvocation.process)}; fanned out at ${(big.fanOutWall / 1000).toFixed(1)} s`,
      mibs(big.peak),
      over.length ? `no: ${over.join(", ")}` : `yes (${big.arrived} mails, ${big.duplicates} twice)`,
    ]);
    continue;
  }
  const over = [
    Math.min(big.isolate, big.process) > CPU_LIMIT_MS ? "CPU" : null,
    big.peak > MEMORY_LIMIT ? "memory" : null,
    big.paged && ratio > 2 ? "over 2×" : null,
  ].filter(Boolean);
  rows.push([
    name,
    ms(little.wall),
    ms(big.wall),
    ratio.toFixed(2),
    `${ms(big.isolate)} isolate / ${ms(big.process)} process`,
    mibs(big.peak),
    over.length ? `no: ${over.join(", ")}` : "yes",
  ]);
}
const columns = [
  "request",
  `${size(smallSize)} time`,
  `${size(largeSize)} time`,
  "ratio",
  `CPU per invocation at ${size(largeSize)}`,
  `JS heap peak at ${size(largeSize)}`,
  "within limits",
];
console.log(
  `\nAt size: ${SIZES.map(size).join(" vs ")} leads (${CONFIRMED_SHARE * 100} % confirmed newsletter, ${ALERTS_SHARE * 100} % alerts), median of ${RUNS}; limits: ${CPU_LIMIT_MS} ms CPU, 128 MB; load ${(
    await import("node:os")
  )
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}\n`,
);
console.log(`| ${columns.join(" | ")} |`);
console.log(`|${columns.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
for (const [name, [, r]] of measured)
  if (r.bytes) console.log(`\n${name}: ${r.bytes.toLocaleString("en-US")} bytes at ${size(largeSize)}`);
