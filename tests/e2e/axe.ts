import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/** WCAG 2.2 AA and axe's best practices: what every content page is held to. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * axe-core's violations on the page as it is now, one line each (rule: targets); [] when none.
 * Run in the page itself (legacy mode): the default runs axe per frame, then again in a new blank
 * tab to merge the frames' results, and it reports every pass too, 2-3 times the time for the
 * same violations. The only frames our pages hold are the ventures' own sites, which are not ours
 * to judge.
 */
export async function axeViolations(page: Page, tags?: string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
  const { violations } = await (tags ? builder.withTags(tags) : builder).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
