// The browser files' order: longest first, so that the last minutes are not one long file running
// while the other worker idles. vitest's own order on a clean clone (no cache: larger files first)
// put the walk files, three-line wrappers of describeWalk that run for minutes, last of all.
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
 * Without a report (a clean clone, as in CI): every file, longest first, as measured in a full
 * `npm test` here (2026-12-02). A file missing from the list runs last, so a new long file belongs
 * in it (tests/node/e2e-order.test.ts names a file left out); a stale list costs minutes, never a result: only the order changes.
 */
export const LONGEST = [
  "walk-1.test.ts",
  "room-reading.test.ts",
  "rooms.test.ts",
  "newsletter.test.ts",
  "mail-outage.test.ts",
  "walk-2.test.ts",
  "newsletter-double-opt-in.test.ts",
  "shell-sidebar.test.ts",
  "page-fit.test.ts",
  "events.test.ts",
  "documents.test.ts",
  "shell-keyboard.test.ts",
  "shell-nojs-a11y.test.ts",
  "content.test.ts",
  "content-nojs.test.ts",
  "subscriber-handoff.test.ts",
  "shell-popup-toast.test.ts",
  "smoke.test.ts",
  "auth.test.ts",
  "admin-messages.test.ts",
  "leads-workbench.test.ts",
  "ventures.test.ts",
  "content-js.test.ts",
  "investor-phone-walk.test.ts",
  "html-checker.test.ts",
  "news-alerts.test.ts",
  "settings.test.ts",
  "account-data.test.ts",
  "outage-switch.test.ts",
  "leads-dashboard.test.ts",
  "blog.test.ts",
  "mail.test.ts",
  "blog-failing-feed.test.ts",
  "mail-service.test.ts",
  "late-hydration.test.ts",
  "error-screen.test.ts",
  "html-cache.test.ts",
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
