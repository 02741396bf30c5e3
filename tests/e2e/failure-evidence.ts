// A failed browser test leaves what its pages showed: a screenshot of each page it still had open
// (test-results/failures/), its URL, whether a dialog was open, the animations still running and
// its console errors, printed with the failure. A timeout alone says too little to act on.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach } from "vitest";
import { openPages } from "./browser";

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    const dir = join(process.cwd(), "test-results", "failures");
    mkdirSync(dir, { recursive: true });
    const base = task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
    let i = 0;
    for (const [page, consoleErrors] of openPages) {
      const file = join(dir, `${base}-${++i}.png`);
      const shot = await page.screenshot({ path: file, timeout: 10_000 }).then(
        () => file,
        (error: Error) => `no screenshot (${error.message.split("\n")[0]})`,
      );
      const state = await page
        .evaluate(() => ({
          dialogs: document.querySelectorAll('[role="dialog"], [role="alertdialog"]').length,
          animations: document.getAnimations().filter((a) => a.playState === "running").length,
          hydrated: typeof (window as { __remixRouter?: unknown }).__remixRouter === "object",
        }))
        .catch((error: Error) => ({ error: error.message.split("\n")[0] }));
      console.error(
        `[failure evidence] ${task.name}: page ${i} at ${page.url()}\n  ${shot}\n  ${JSON.stringify(state)}\n  console errors: ${consoleErrors.length ? consoleErrors.join(" | ") : "none"}`,
      );
    }
  });
});
