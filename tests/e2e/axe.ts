import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, RunOptions } from "axe-core";
import type { Page } from "playwright-core";

/** WCAG 2.2 AA and axe's best practices: what every content page is held to. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * The rules whose verdict depends on the colours: all a change of theme can change (the markup,
 * names and roles stay), so a page already scanned whole in one theme is scanned in the other
 * with these alone (they are ~60 % of a whole scan's time).
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's violations on the page as it is now, one line each (rule: targets); [] when none.
 * axe runs in the page itself, put there once per document: @axe-core/playwright evaluated its
 * 560 kB source two or more times per scan (~0.4 s each on this machine), and by default also ran
 * axe per frame and again in a new blank tab to merge the frames' results, reporting every pass
 * too. Frames are left out (`iframes: false`): the only ones our pages hold are the ventures' own
 * sites, which are not ours to judge.
 */
export async function axeViolations(
  page: Page,
  tags?: string[],
  { rules }: { rules?: string[] } = {},
): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = {
    resultTypes: ["violations"],
    iframes: false,
    ...(rules ? { runOnly: { type: "rule", values: rules } } : tags ? { runOnly: { type: "tag", values: tags } } : {}),
  };
  const violations = await page.evaluate(
    (options) =>
      ((window as any).axe.run(document, options) as Promise<AxeResults>).then(({ violations }) =>
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ),
    options,
  );
  return violations;
}
