// Investor alerts at scale (issue 45): BENCH_ALERTS (default 1 000) confirmed alert subscribers,
// one news item published with its alert by the admin's form, against the built worker under
// wrangler dev with the local SMTP server and inbox (the Cron Trigger's jobs every minute, as
// `npm start` runs them). Measured: the time from the publish request to the last alert mail in the
// inbox (maildev's clock, on this machine), the mails/s, and that each subscriber got exactly one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureDevVars, ROOT } from "../scripts/lib/config.mjs";
import { build, freePort, migrate, run, triggerScheduled } from "../scripts/lib/local-worker.mjs";
import { startLocalMail } from "../scripts/lib/local-mail.mjs";
import { alertNewsForm, benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";

const COUNT = Number(process.env.BENCH_ALERTS || 1000);
/** How long to wait for the last alert before reporting what arrived. */
const WAIT_MS = Number(process.env.BENCH_ALERTS_WAIT_MS || 300_000);
const seconds = (ms) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`);

/** `count` confirmed subscribers of the alerts topic, straight into the local D1. */
function seedSubscribers(persistTo, run_, count) {
  const dir = mkdtempSync(join(tmpdir(), "afx-alerts-"));
  try {
    const now = Date.now();
    const rows = Array.from(
      { length: count },
      (_, i) => `('alert-${run_}-${i}@example.com', '', 'bench', ${now}, 'confirmed', ${now}, 'alerts')`,
    );
    const file = join(dir, "alerts.sql");
    // D1 refuses a statement over 100 KB: 100 rows each.
    const statements = [];
    for (let i = 0; i < rows.length; i += 100)
      statements.push(
        `INSERT INTO leads (email, first_name, source, subscribed_at, status, confirmed_at, topic) VALUES\n${rows.slice(i, i + 100).join(",\n")};`,
      );
    writeFileSync(file, `${statements.join("\n")}\n`);
    run(
      resolve(ROOT, "node_modules/.bin/wrangler"),
      ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", file, "--yes"],
      { env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "ignore", "inherit"] },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Receipt times of the mails with `subject`, by recipient (every one, to count duplicates). */
async function received(inboxUrl, subject) {
  const res = await fetch(`${inboxUrl.replace("//localhost:", "//127.0.0.1:")}/email`);
  if (!res.ok) throw new Error(`inbox answered ${res.status}`);
  const byRecipient = new Map();
  for (const m of await res.json())
    if (m.subject === subject)
      for (const r of m.envelope.to)
        byRecipient.set(r.address, [...(byRecipient.get(r.address) ?? []), Date.parse(m.time)]);
  return byRecipient;
}

export default async function alerts() {
  ensureDevVars();
  if (process.env.SKIP_BUILD !== "1") build();
  const persistTo = mkdtempSync(join(tmpdir(), "afx-bench-alerts-"));
  migrate(persistTo);
  const runId = Date.now().toString(36);
  seedSubscribers(persistTo, runId, COUNT);
  const mail = await startLocalMail({ smtpPort: await freePort(), webPort: await freePort() });
  const fixtures = await benchFixtures({ persistTo, leads: 0 });
  const worker = await startBenchWorker({
    persistTo,
    fixtures,
    vars: { SMTP_HOST: mail.smtpHost, SMTP_PORT: String(mail.smtpPort) },
  });
  const cron = setInterval(() => triggerScheduled(worker.url).catch(() => {}), 60_000);
  try {
    const cookie = await fixtures.adminCookie(worker.url);
    const title = `Bench alert ${runId}`;
    const body = new FormData();
    for (const [k, v] of Object.entries(alertNewsForm(title))) body.set(k, v);
    const started = Date.now();
    const res = await fetch(`${worker.url}/admin/news`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: worker.url },
      body,
      redirect: "manual",
    });
    await res.arrayBuffer();
    if (res.status !== 303) throw new Error(`publish answered ${res.status}`);
    const answered = Date.now();
    const subject = `AFX Holding Group: ${title}`;
    const deadline = Date.now() + WAIT_MS;
    let got = new Map();
    while (Date.now() < deadline) {
      got = await received(mail.inboxUrl, subject);
      if (got.size >= COUNT) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const times = [...got.values()].flat();
    const duplicates = times.length - got.size;
    const last = times.length ? Math.max(...times) - started : undefined;
    return {
      title: `Investor alerts: one item published to ${COUNT} subscribers (local SMTP)`,
      columns: ["subscribers", "publish answered in", "arrived", "duplicates", "first", "last", "mails/s"],
      rows: [
        [
          COUNT,
          seconds(answered - started),
          `${got.size}/${COUNT}`,
          duplicates,
          seconds(times.length ? Math.min(...times) - started : undefined),
          seconds(last),
          last ? (times.length / (last / 1000)).toFixed(1) : "–",
        ],
      ],
      notes: ["first/last = inbox receipt (maildev's clock) − the publish request's start."],
    };
  } finally {
    clearInterval(cron);
    await worker.stop();
    await fixtures.stop();
    await mail.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
