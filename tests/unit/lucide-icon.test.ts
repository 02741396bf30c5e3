import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lucideIcon } from "~/components/ui/lucide-icon";
import { ArrowLeft, Users } from "~/components/ui/icons.generated";

// An icon's drawing is its svg's inner markup (one element for React to render and hydrate, not
// each part): the same markup React would write for the parts as elements. The browser suite sees
// icons the browser renders (the mobile sheet, a page after a client navigation) drawn too
// (tests/e2e/shell-sidebar.test.ts).
describe("lucide icons (lucide-icon.ts)", () => {
  it("write lucide's parts as React would write them as elements", () => {
    expect(renderToStaticMarkup(createElement(ArrowLeft))).toBe(
      '<svg viewBox="0 0 24 24" class="lucide lucide-arrow-left" aria-hidden="true">' +
        '<path d="m12 19-7-7 7-7"></path><path d="M19 12H5"></path></svg>',
    );
    const asElements = renderToStaticMarkup(
      createElement("g", null, createElement("path", { d: "M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2" })),
    );
    expect(renderToStaticMarkup(createElement(Users))).toContain(asElements.slice(3, -4));
  });

  it("keep a name and a class given, and hide only an unnamed icon", () => {
    const named = renderToStaticMarkup(createElement(ArrowLeft, { "aria-label": "Back", className: "size-4" }));
    expect(named).toMatch(/^<svg viewBox="0 0 24 24" class="lucide lucide-arrow-left size-4" aria-label="Back">/);
    expect(named).not.toContain("aria-hidden");
  });

  it("escape an attribute value's quotes and ampersands", () => {
    const Odd = lucideIcon("odd", [["path", { d: 'M0 0"/><script>&' }]]);
    expect(renderToStaticMarkup(createElement(Odd))).toContain('<path d="M0 0&quot;/><script>&amp;"></path>');
  });
});
