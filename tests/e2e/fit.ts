import type { Page } from "playwright-core";
import { expect } from "vitest";

/** A phone the pages are held to (decision 080), and the narrowest width WCAG 1.4.10 (Reflow) asks for. */
export const PHONE = { width: 412, height: 915 };
export const NARROWEST = 320;

/** How far the document is wider than the viewport, and the first elements that stick out. */
export async function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const past = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5 && !el.closest("[data-scroll-x]"))
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").slice(0, 40)}"`);
    return { extra: root.scrollWidth - root.clientWidth, past };
  });
}

/**
 * The page as it is now scrolls no wider than its viewport, nor at 320 px: a resize reflows it in
 * place (no second load), then the viewport is put back.
 */
export async function expectFits(page: Page, label: string) {
  const { extra, past } = await overflow(page);
  expect(extra, `${label} is ${extra} px too wide: ${past.join(", ")}`).toBe(0);
  const size = page.viewportSize();
  if (size && size.width > NARROWEST) {
    await page.setViewportSize({ width: NARROWEST, height: size.height });
    const narrow = await overflow(page);
    await page.setViewportSize(size);
    expect(narrow.extra, `${label} is ${narrow.extra} px too wide at ${NARROWEST} px: ${narrow.past.join(", ")}`).toBe(
      0,
    );
  }
}
