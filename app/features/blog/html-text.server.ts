// Turning feed HTML into plain text and feed links into safe URLs. Nothing from a feed is ever
// rendered as HTML: these give the page text and http(s) URLs only.

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  laquo: "\u00ab",
  raquo: "\u00bb",
  bull: "\u2022",
  middot: "\u00b7",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  deg: "\u00b0",
  euro: "\u20ac",
  pound: "\u00a3",
  yen: "\u00a5",
  cent: "\u00a2",
  times: "\u00d7",
  divide: "\u00f7",
  para: "\u00b6",
  sect: "\u00a7",
  shy: "",
  aacute: "\u00e1",
  agrave: "\u00e0",
  acirc: "\u00e2",
  auml: "\u00e4",
  atilde: "\u00e3",
  aring: "\u00e5",
  eacute: "\u00e9",
  egrave: "\u00e8",
  ecirc: "\u00ea",
  euml: "\u00eb",
  iacute: "\u00ed",
  igrave: "\u00ec",
  icirc: "\u00ee",
  iuml: "\u00ef",
  oacute: "\u00f3",
  ograve: "\u00f2",
  ocirc: "\u00f4",
  ouml: "\u00f6",
  otilde: "\u00f5",
  oslash: "\u00f8",
  uacute: "\u00fa",
  ugrave: "\u00f9",
  ucirc: "\u00fb",
  uuml: "\u00fc",
  ccedil: "\u00e7",
  ntilde: "\u00f1",
  szlig: "\u00df",
  aelig: "\u00e6",
  Aacute: "\u00c1",
  Eacute: "\u00c9",
  Iacute: "\u00cd",
  Oacute: "\u00d3",
  Uacute: "\u00da",
  Auml: "\u00c4",
  Ouml: "\u00d6",
  Uuml: "\u00dc",
  Ccedil: "\u00c7",
  Ntilde: "\u00d1",
};

/** Decodes HTML character references once; unknown ones stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      // Lone surrogates, NUL and out-of-range code points are not text.
      if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref] ?? whole;
  });
}

/**
 * The readable text of an HTML fragment: scripts, styles and comments dropped, tags removed,
 * entities decoded, whitespace collapsed.
 */
export function htmlToText(html: string): string {
  if (!html) return "";
  const withoutTags = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, " ")
    .replace(/<(script|style|noscript|template)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, " ")
    .replace(/<\/?[a-z!?][^>]*(?:>|$)/gi, " ");
  return decodeEntities(withoutTags).replace(/\s+/g, " ").trim();
}

/** `href` resolved against `base`, kept only when it is an absolute http(s) URL. */
export function httpUrl(href: string | undefined | null, base?: string | null): string | null {
  const value = href?.trim();
  if (!value) return null;
  try {
    const url = base ? new URL(value, httpUrl(base) ?? undefined) : new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The first `<img src>` of an HTML fragment that is an http(s) URL (resolved against `base`). */
export function firstImageUrl(html: string, base?: string | null): string | null {
  for (const match of html.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const url = httpUrl(decodeEntities(match[1] ?? match[2] ?? match[3] ?? ""), base);
    if (url) return url;
  }
  return null;
}

/** RFC 822 (RSS) and ISO 8601 (Atom) dates as ISO strings; null when unusable. */
export function isoDate(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  let ms = Date.parse(v);
  // A wrong day name ("Mon" on a Tuesday) or an odd one must not lose the date.
  if (Number.isNaN(ms)) ms = Date.parse(v.replace(/^[a-z]+\.?,?\s*/i, ""));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Whitespace-separated words of plain text. */
export function countWords(text: string): number {
  return text ? text.split(/\s+/).filter(Boolean).length : 0;
}
