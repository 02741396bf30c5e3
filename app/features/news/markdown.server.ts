/**
 * A news body's Markdown as HTML (docs/decisions/074-news-and-feeds.md, 076), by marked with its
 * renderer told what a body may make: raw HTML (block or inline) comes out as escaped text, and so
 * does the text marked reads raw after an unclosed `<kbd>`/`<code>`/`<pre>`/`<script>`; links
 * go only to http(s):, mailto:, a fragment or a path of this site, anything else leaves its text
 * alone; images are shown as their alt text (the CSP loads no remote image, and a body has no
 * business loading one). Every attribute is written escaped, so the browser reads exactly the
 * address that was judged.
 */
import { Marked, type Tokens } from "marked";
import { decodeEntities } from "~/features/blog/html-text.server";
import { escapeHtml } from "~/utils/escape-html";
import { sameOriginPath } from "~/utils/same-origin-path";

/** Any origin: a same-origin path is judged as a path, never by where the site runs. */
const ANY_ORIGIN = "https://origin.invalid";

/** A link target a body may use: http(s):, mailto:, a fragment, or a same-origin path (not `//host`). */
export function allowedLink(url: string): boolean {
  const href = url.trim();
  if (/^(https?:\/\/|mailto:)[^\s]+$/i.test(href)) return true;
  return /^#[^\s]*$/.test(href) || sameOriginPath(href, ANY_ORIGIN) !== null;
}

const marked = new Marked({
  gfm: true,
  async: false,
  // After an inline `<kbd>`, `<code>`, `<pre>` or `<script>` that is not closed, marked reads the
  // rest of the paragraph in its raw mode: its text tokens come flagged `escaped` with their text
  // untouched, and the renderer would write them as they are (live markup). Nothing a body holds
  // is ever pre-escaped, so every text token is escaped by the renderer like any other.
  walkTokens(token) {
    if (token.type === "text" && "escaped" in token && token.escaped) token.escaped = false;
  },
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (!allowedLink(href)) return text;
      const external = /^https?:/i.test(href) ? ' rel="noopener noreferrer"' : "";
      const titled = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(href.trim())}"${titled}${external}>${text}</a>`;
    },
    image({ text }: Tokens.Image) {
      return escapeHtml(text);
    },
  },
});

/** The body's HTML: safe to insert as it is. */
export function renderMarkdown(body: string): string {
  return marked.parse(body, { async: false });
}

/**
 * The body as plain text, for places that show no HTML (a calendar's DESCRIPTION): the rendered
 * HTML with its blocks as paragraphs, list items as "- …", a link as its text and its address,
 * every tag dropped and every entity decoded. No `**` or `#` is left for a reader to puzzle over.
 */
export function markdownToText(body: string): string {
  return decodeEntities(
    renderMarkdown(body)
      .replace(/<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href: string, text: string) =>
        text === href ? text : `${text} (${href})`,
      )
      .replace(/<li>/g, "- ")
      .replace(/<br\s*\/?>/g, "\n")
      .replace(/<\/(p|h[1-6]|li|blockquote|pre|tr|ul|ol|table)>/g, "\n")
      .replace(/<\/t[dh]>/g, " ")
      .replace(/<hr\s*\/?>/g, "\n")
      .replace(/<[^>]+>/g, ""),
  )
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
