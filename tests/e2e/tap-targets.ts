import type { Page } from "playwright-core";

/**
 * The page's tap targets under 24 × 24 CSS px that WCAG 2.5.8 (Target Size, Minimum) does not
 * excuse: a link inside a sentence is (the inline exception), and so is a small target whose
 * 24 px circle on its centre meets no other target (the spacing exception). A checkbox or radio
 * inside its label counts as the label. Each as `tag "text" width×height`.
 */
export function smallTargets(page: Page, scope = "main"): Promise<string[]> {
  return page.evaluate((scope) => {
    const root = document.querySelector(scope) ?? document.body;
    const targets = [
      ...root.querySelectorAll<HTMLElement>(
        "a[href], button, summary, select, textarea, input:not([type=hidden]), label:has(input)",
      ),
    ].filter((el) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest("[aria-hidden='true'], [hidden]")) return false;
      if (el.tabIndex < 0 && el.tagName !== "LABEL") return false;
      const boxed = el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio");
      return !(boxed && el.closest("label"));
    });
    const rects = targets.map((el) => el.getBoundingClientRect());
    const inSentence = (el: HTMLElement) => {
      if (el.tagName !== "A") return false;
      const block = el.closest("p, li, dd, td");
      return !!block && (block.textContent ?? "").trim().length > (el.textContent ?? "").trim().length + 1;
    };
    const small = (r: DOMRect) => r.width < 23.5 || r.height < 23.5;
    return targets.flatMap((el, i) => {
      const r = rects[i]!;
      if (!small(r) || inSentence(el)) return [];
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const clear = rects.every((o, j) => {
        if (j === i || targets[j]!.contains(el) || el.contains(targets[j]!)) return true;
        const dx = Math.max(o.left - cx, 0, cx - o.right);
        const dy = Math.max(o.top - cy, 0, cy - o.bottom);
        // Another small target's circle is 12 px around its own centre too.
        const reach = small(o) ? 24 : 12;
        const centre = Math.hypot(o.left + o.width / 2 - cx, o.top + o.height / 2 - cy);
        return small(o) ? centre >= reach : Math.hypot(dx, dy) >= reach;
      });
      return clear
        ? []
        : [
            `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}" ${Math.round(r.width)}×${Math.round(r.height)}`,
          ];
    });
  }, scope);
}

/** Whether the element is wholly inside the viewport (an answer the person can see without scrolling). */
export function inView(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    });
}
