// The browser files' order: longest first, so that the last minutes are not one long file running
// while the other worker idles. vitest's own order on a clean clone (no cache: larger files first)
// put the axe files, three-line wrappers of describeAxe that run for minutes, last of all.
import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Each file's seconds in the last `npm test` run here (scripts/test.mjs writes the report). */
function lastDurations(root: string): Map<string, number> {
  const report = resolve(root, "test-results/e2e.json");
  if (!existsSync(report)) return new Map();
  try {
    const { testResults } = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: { name: string; startTime: number; endTime: number }[];
    };
    return new Map(testResults.map((f) => [basename(f.name), f.endTime - f.startTime]));
  } catch {
    return new Map();
  }
}

/**
 * Without a report (a clean clone, as in CI): the files measured longest, longest first (a full
 * run of the suite here, 2026-11-27, after visitorPage). A stale list costs minutes, never a
 * result: only the order changes.
 */
const LONGEST = [
  "mail-outage.test.ts",
  "a11y-light.test.ts",
  "a11y-dark.test.ts",
  "newsletter.test.ts",
  "shell-keyboard.test.ts",
  "content.test.ts",
  "smoke.test.ts",
  "content-js.test.ts",
  "auth.test.ts",
  "shell-popup-toast.test.ts",
  "content-nojs.test.ts",
  "newsletter-double-opt-in.test.ts",
  "leads-workbench.test.ts",
  "shell-nojs-a11y.test.ts",
  "shell-sidebar.test.ts",
  "admin-messages.test.ts",
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = lastDurations(this.ctx.config.root);
    const rank = (file: TestSpecification) => {
      const name = basename(file.moduleId);
      const measured = durations.get(name);
      if (measured !== undefined) return -measured;
      const listed = LONGEST.indexOf(name);
      return listed === -1 ? 0 : listed - LONGEST.length;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}
