// Which part of our documents costs the layout (issue 36 item 2): each page with JavaScript off,
// served as the worker renders it and with one suspect removed at a time (a rule appended to its
// head, or its markup changed), loaded alternately in one run; blocking, layout and style time at
// CPU × 4 (bench/lib/speed.mjs). Not part of `npm run bench` (it judges nothing):
// `node bench/speed-suspects.mjs [/path …]` after `npm run build`; SUSPECTS=icons,3d for a few.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { migrate } from "../scripts/lib/local-worker.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";
import { median, stylesheetFloor } from "./lib/speed.mjs";
import { CHROMIUM_ARGS } from "../scripts/lib/chromium-args.mjs";
import { alternate, SPEED_PATHS } from "./speed2.bench.mjs";

/** A rule appended to the head (the served copy has no CSP, so a <style> element applies). */
const rule = (css) => (html) => html.replace("</head>", `<style>${css}</style></head>`);

const SUSPECTS = {
  served: (html) => html, // the same bytes through the bench's own serving: the control
  icons: (html) => html.replace(/(<svg\b[^>]*>)[\s\S]*?<\/svg>/g, "$1</svg>"), // boxes kept, parts gone
  "3d": rule(
    "*{transform-style:flat!important;backface-visibility:visible!important;perspective:none!important;transform:none!important}",
  ),
  blur: rule("*{backdrop-filter:none!important;filter:none!important}"),
  clamp: rule("*{-webkit-line-clamp:none!important}"),
  transitions: rule("*,*::before,*::after{transition:none!important;animation:none!important}"),
  // The cards' entrance (card-enter-*, a transform animation of the venture and blog cards).
  "enter-off": rule('[class*="card-enter"]{animation:none!important}'),
  "enter-inner": rule(
    ".card-grid>li{animation:none!important}.card-grid>li>article{animation:card-enter .5s ease-out both}",
  ),
  "enter-will": rule('[class*="card-enter"]{will-change:transform}'),
  shadows: rule("*{box-shadow:none!important;text-shadow:none!important}"),
  "no-cv": rule("*{content-visibility:visible!important}"),
  "cv-sections": rule("main section~section,footer{content-visibility:auto;contain-intrinsic-size:auto 600px}"),
  // The stylesheet's :has() rules (the no-JS menu, the dialog's scroll lock) made never to match.
  has: (html) =>
    html
      .replace(/html:not\(\.js\):has\(\[data-nojs-menu\]\[open\]\)/g, "html.x-never")
      .replace(/html:has\(\.dialog-overlay\)/g, "html.x-never"),
  // Tailwind's fallback for browsers without @property: every element's --tw-* initial values.
  "tw-props": (html) =>
    html.replace(/@layer properties\{@supports[^{]*\{\*,:before,:after,::backdrop\{[^}]*\}\}\}/, ""),
  // Issue 36, second round: the blog's and documents' cards and the footer laid out only when near.
  "cv-cards": rule(
    "[data-testid=blog-posts]>article,main section>ul.grid>li{content-visibility:auto;contain-intrinsic-size:auto 260px}footer{content-visibility:auto;contain-intrinsic-size:auto 830px}",
  ),
  "cv-footer": rule("footer{content-visibility:auto;contain-intrinsic-size:auto 830px}"),
  // Issue 36, third round. The header's contents gone (its box kept): what the header costs.
  "header-empty": (html) => html.replace(/(<header\b[^>]*>)[\s\S]*?<\/header>/, "$1</header>"),
  // The phone's hidden sidebar (display: none below 768 px) gone: what parsing it costs.
  "no-sidebar": (html) => html.replace(/<aside\b[\s\S]*?<\/aside>/, ""),
  // Each icon as a <use> of one <symbol> per drawing, the symbols in a hidden sprite.
  sprite: (html) => {
    const symbols = new Map();
    const out = html.replace(
      /(<svg\b[^>]*class="lucide lucide-([\w-]+)[^"]*"[^>]*>)([\s\S]*?)<\/svg>/g,
      (_, open, name, parts) => {
        symbols.set(name, `<symbol id="i-${name}" viewBox="0 0 24 24">${parts}</symbol>`);
        return `${open}<use href="#i-${name}"></use></svg>`;
      },
    );
    const sprite = `<svg width="0" height="0" style="position:absolute" aria-hidden="true">${[...symbols.values()].join("")}</svg>`;
    return out.replace(/(<body\b[^>]*>)/, `$1${sprite}`);
  },
  floor: stylesheetFloor,
};

const only = process.env.SUSPECTS?.split(",");
// BEFORE_HTML=dir: each page's document as another build rendered it (dir/<path>.html, the path's
// non-word runs as "_"), served beside today's: a change's before and after in one run.
const before = process.env.BEFORE_HTML;
if (before)
  SUSPECTS.before = (html, path) => readFileSync(join(before, `${path.replace(/\W+/g, "_") || "_"}.html`), "utf8");
const variants = [
  { name: "JS off", js: false },
  ...Object.entries(SUSPECTS)
    .filter(([name]) => !only || only.includes(name) || name === "served" || name === "before")
    .map(([name, html]) => ({ name, js: false, html })),
];
const paths = process.argv.slice(2).length ? process.argv.slice(2) : SPEED_PATHS;
const persistTo = mkdtempSync(join(tmpdir(), "afx-suspects-d1-"));
migrate(persistTo);
const fixtures = await benchFixtures({ persistTo, leads: 0 });
const worker = await startBenchWorker({ persistTo, fixtures });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: CHROMIUM_ARGS,
});
try {
  const { results } = await alternate(browser, worker.url, paths, variants, {
    log: (m) => process.stderr.write(`suspects: ${m}\n`),
  });
  for (const path of paths) {
    console.log(`\n## ${path} (JS off; CPU time × 4, median of ${results.get(path).get("JS off").length})`);
    console.log("| variant | blocking | layout | style | layout passes | largest layouts |");
    console.log("|---|---|---|---|---|---|");
    for (const [name, loads] of results.get(path)) {
      const m = (key) => Math.round(median(loads.map((l) => l[key])));
      const typical = [...loads].sort((a, b) => a.blocking - b.blocking)[Math.floor((loads.length - 1) / 2)];
      console.log(
        `| ${name} | ${m("blocking")} ms | ${m("layoutMs")} ms | ${m("styleMs")} ms | ${m("layoutPasses")} | ${typical.topLayouts.join(", ")} |`,
      );
    }
  }
} finally {
  await browser.close();
  await worker.stop();
  await fixtures.stop?.();
  rmSync(persistTo, { recursive: true, force: true });
}
