/**
 * A news body's Markdown as HTML (docs/decisions/074-news-and-feeds.md), by markdown-it with raw
 * HTML off: whatever a body says comes out as text or as the few elements Markdown makes. Links
 * go only to http(s):, mailto: or a path of this site; images are shown as their alt text (the
 * CSP loads no remote image, and a body has no business loading one); table alignment, which
 * markdown-it writes as a style attribute the CSP refuses, is dropped.
 */
import MarkdownIt from "markdown-it";
import { sameOriginPath } from "~/utils/same-origin-path";

/** Any origin: a same-origin path is judged as a path, never by where the site runs. */
const ANY_ORIGIN = "https://origin.invalid";

/** A link target a body may use: http(s):, mailto:, or a same-origin path (not `//host`). */
export function allowedLink(url: string): boolean {
  const href = url.trim();
  if (/^(https?:|mailto:)/i.test(href)) return true;
  return href.startsWith("#") || sameOriginPath(href, ANY_ORIGIN) !== null;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.validateLink = allowedLink;

// An image becomes its alt text: nothing is loaded.
md.renderer.rules.image = (tokens, idx) => md.utils.escapeHtml(tokens[idx]!.content);

// Links elsewhere neither tell their target where the reader came from nor get a window handle.
const renderLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  if (/^https?:/i.test(String(token.attrGet("href") ?? ""))) token.attrSet("rel", "noopener noreferrer");
  return renderLinkOpen(tokens, idx, options, env, self);
};

for (const rule of ["th_open", "td_open"] as const) {
  md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx]!;
    token.attrs = token.attrs?.filter(([name]) => name !== "style") ?? null;
    return self.renderToken(tokens, idx, options);
  };
}

/** The body's HTML: safe to insert as it is. */
export function renderMarkdown(body: string): string {
  return md.render(body);
}
