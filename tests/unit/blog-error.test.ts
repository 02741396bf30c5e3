// The blog's error state (only when rendering itself fails): its text and a 'Try Again'
// that reloads the whole page, with or without JavaScript.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BlogError } from "~/routes/blog";

describe("blog error state", () => {
  it("says 'Failed to load blog posts' and offers 'Try Again' as a full reload", () => {
    const html = renderToString(createElement(BlogError));
    expect(html).toContain('role="alert"');
    expect(html).toContain("Failed to load blog posts");
    // A plain GET form without an action submits to the page's own URL: a full document load.
    expect(html).toMatch(/<form method="get"><button type="submit"[^>]*>Try Again<\/button><\/form>/);
  });
});
