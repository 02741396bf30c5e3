// npm run bench: runs every bench/*.bench.mjs in turn and prints their tables. Each module
// exports `default async function (ctx)` returning { title, columns: string[], rows: any[][], notes?: string[] }.
// Figures are ratios measured within one run: the machines are shared and noisy.
import "../scripts/lib/node-version.mjs"; // first: one clear line on a too-old Node
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../scripts/lib/config.mjs";
import { GOAL_COLUMNS } from "./lib/goals.mjs";

const only = process.argv.slice(2);
const files = readdirSync(resolve(ROOT, "bench"))
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

function printTable({ title, columns, rows, notes = [] }) {
  const cells = [columns, ...rows.map((r) => r.map(String))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r) => `| ${r.map((c, i) => (c ?? "").padEnd(widths[i])).join(" | ")} |`;
  console.log(`\n## ${title}\n`);
  console.log(line(columns));
  console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const r of cells.slice(1)) console.log(line(r));
  for (const n of notes) console.log(`\n${n}`);
}

let failed = false;
const goals = [];
for (const file of files) {
  const mod = await import(pathToFileURL(resolve(ROOT, "bench", file)).href);
  try {
    const tables = [].concat(await mod.default({ root: ROOT }));
    for (const t of tables) printTable(t);
    for (const t of tables) goals.push(...(t.goals ?? []));
  } catch (error) {
    failed = true;
    console.error(`\n${file} failed:`, error);
  }
}
// Every judged goal in one table, last, so a run ends with its verdicts.
if (goals.length)
  printTable({
    title: "Goals (issues 28 and 36): each beside today's figure and the ratio of now to its target",
    columns: GOAL_COLUMNS,
    rows: goals,
  });
process.exit(failed ? 1 : 0);
