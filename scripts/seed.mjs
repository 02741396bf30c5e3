// npm run seed -- --leads N [--confirmed C] [--alerts A] [--persist-to DIR] [--clear] [--verbose]
// Fills the local D1 (default .wrangler/state, the one `npm start` uses) with N generated leads
// spread over the last 60 days, several sources and the three statuses (90 % confirmed), in batched INSERTs through
// `wrangler d1 execute --file`. E-mails carry a per-run tag, so running it twice adds 2 × N.
// `--alerts A`: A of the N are confirmed investor-alert subscribers (topic `alerts`), the rest
// newsletter leads; `--confirmed C`: exactly C of those newsletter leads are confirmed, the others
// pending or unsubscribed (7 : 3). Both spread evenly over the N, so over the 60 days too
// (bench/at-size.mjs: `--leads 100000 --confirmed 67000 --alerts 10000`).
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ROOT } from "./lib/config.mjs";
import { migrate, run } from "./lib/local-worker.mjs";

const DAY = 24 * 60 * 60 * 1000;
const SPREAD_DAYS = 60;
/** Rows per INSERT: keeps each statement well under D1's 100 KB statement limit. */
const ROWS_PER_INSERT = 400;
/** Weighted like a real site: the footer and the blog bring most signups. */
const SOURCES = [
  ["footer", 40],
  ["blog", 25],
  ["popup", 20],
  ["investors", 6],
  ["partners", 5],
  ["api", 4],
];
const FIRST = ["Ada", "Grace", "Alan", "Zoë", "Linus", "Margaret", "Chidi", "Aiko", "Mateo", "Priya", "Olu", "Sven"];
const LAST = ["Lovelace", "Hopper", "Turing", "Okafor", "Hamilton", "Tanaka", "García", "Patel", "Nilsen", null];

/** A small deterministic generator (mulberry32), so a seed with the same tag is reproducible. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sql = (v) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);

/** Whether item `i` of `n` is one of `k` spread evenly over them (exactly k of the n are). */
const oneOf = (i, k, n) => Math.floor(((i + 1) * k) / n) > Math.floor((i * k) / n);

/**
 * The INSERT statements for `count` leads: `alerts` of them confirmed alert subscribers, and of
 * the newsletter's, exactly `confirmed` confirmed (by default about 90 %, drawn at random).
 */
export function leadInserts(count, { now = Date.now(), tag = now.toString(36), confirmed, alerts = 0 } = {}) {
  const rand = random(Number.parseInt(tag, 36) || 1);
  const totalWeight = SOURCES.reduce((s, [, w]) => s + w, 0);
  const pickSource = () => {
    let r = rand() * totalWeight;
    for (const [source, weight] of SOURCES) if ((r -= weight) < 0) return source;
    return SOURCES[0][0];
  };
  const newsletter = count - alerts;
  /** Newsletter leads so far: the `confirmed` are spread over them. */
  let nth = 0;
  const statements = [];
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + ROWS_PER_INSERT); i++) {
      const first = FIRST[Math.floor(rand() * FIRST.length)];
      const last = LAST[Math.floor(rand() * LAST.length)];
      // Skewed towards recent days: a list that grows.
      const subscribedAt = Math.floor(now - Math.pow(rand(), 1.5) * SPREAD_DAYS * DAY);
      const email = `${first}.${last ?? "x"}.${tag}.${i}@example.com`
        .normalize("NFD")
        .replace(/[^\x20-\x7e]/g, "")
        .toLowerCase();
      const topic = oneOf(i, alerts, count) ? "alerts" : "newsletter";
      // Mostly confirmed subscribers, some waiting for their confirmation, a few who left.
      const r = rand();
      const status =
        topic === "alerts"
          ? "confirmed"
          : confirmed === undefined
            ? r < 0.9
              ? "confirmed"
              : r < 0.97
                ? "pending"
                : "unsubscribed"
            : oneOf(nth++, confirmed, newsletter)
              ? "confirmed"
              : r < 0.7
                ? "pending"
                : "unsubscribed";
      const confirmedAt = status === "pending" ? null : subscribedAt + 60_000;
      const unsubscribedAt = status === "unsubscribed" ? subscribedAt + DAY : null;
      rows.push(
        `(${[email, first, last, pickSource(), "seed", subscribedAt, status, confirmedAt, unsubscribedAt, topic].map(sql).join(", ")})`,
      );
    }
    statements.push(
      `INSERT OR IGNORE INTO leads (email, first_name, last_name, source, user_agent, subscribed_at, status, confirmed_at, unsubscribed_at, topic) VALUES\n${rows.join(",\n")};`,
    );
  }
  return statements;
}

/** Migrates the local D1 in `persistTo` and adds `count` leads to it (`confirmed`, `alerts`: leadInserts'). */
export function seedLeads({
  count,
  confirmed,
  alerts,
  persistTo = resolve(ROOT, ".wrangler/state"),
  clear = false,
  now,
  verbose = false,
}) {
  migrate(persistTo);
  const dir = mkdtempSync(join(tmpdir(), "afx-seed-"));
  try {
    const file = join(dir, "seed.sql");
    const statements = leadInserts(count, { now, confirmed, alerts });
    writeFileSync(file, `${clear ? "DELETE FROM leads;\n" : ""}${statements.join("\n")}\n`);
    run(
      resolve(ROOT, "node_modules/.bin/wrangler"),
      ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", file, "--yes"],
      {
        env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
        stdio: ["ignore", verbose ? "inherit" : "ignore", "inherit"],
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      leads: { type: "string" },
      confirmed: { type: "string" },
      alerts: { type: "string" },
      "persist-to": { type: "string" },
      clear: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
    },
  });
  const count = Number(values.leads);
  const alerts = Number(values.alerts ?? 0);
  const confirmed = values.confirmed === undefined ? undefined : Number(values.confirmed);
  const whole = (n) => Number.isInteger(n) && n >= 0;
  if (
    !Number.isInteger(count) ||
    count < 1 ||
    !whole(alerts) ||
    alerts > count ||
    (confirmed !== undefined && (!whole(confirmed) || confirmed > count - alerts))
  ) {
    console.error(
      "Usage: npm run seed -- --leads N [--confirmed C ≤ N − A] [--alerts A ≤ N] [--persist-to DIR] [--clear]",
    );
    process.exit(2);
  }
  const started = Date.now();
  seedLeads({
    count,
    confirmed,
    alerts,
    persistTo: values["persist-to"] ? resolve(values["persist-to"]) : undefined,
    clear: values.clear,
    verbose: values.verbose,
  });
  console.log(`Seeded ${count} leads in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
