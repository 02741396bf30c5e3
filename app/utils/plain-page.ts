/**
 * A page in words without the site's shell, for answers that cannot render it because the shell
 * needs the database (docs/decisions/121-outages.md): the outage's 503 (worker/outage.ts) and the
 * no-JavaScript signup kept while D1 is down. It carries the site's one stylesheet, whose CSP hash
 * every page's policy already lists, and no script.
 */
import { escapeHtml } from "~/utils/escape-html";

export interface PlainPage {
  title: string;
  paragraphs: string[];
  /** A titled list under the paragraphs ("What still works"). */
  list?: { title: string; items: string[] };
  links: { href: string; text: string }[];
}

export function plainPageHtml(stylesheet: string, page: PlainPage): string {
  const e = escapeHtml;
  const paragraphs = page.paragraphs.map((p) => `<p class="mt-4">${e(p)}</p>`).join("\n");
  const list = page.list
    ? `<h2 class="mt-6 text-lg font-semibold">${e(page.list.title)}</h2>
<ul class="mt-2 list-disc pl-6">${page.list.items.map((i) => `<li>${e(i)}</li>`).join("")}</ul>`
    : "";
  const links = page.links.map((l) => `<a class="underline" href="${e(l.href)}">${e(l.text)}</a>`).join(" · ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(page.title)} · AFX Holding Group</title>
<style id="stylesheet">${stylesheet}</style>
</head>
<body>
<main id="main" class="mx-auto max-w-2xl px-4 py-12">
<h1 class="text-2xl font-semibold">${e(page.title)}</h1>
${paragraphs}
${list}
<p class="mt-6">${links}</p>
</main>
</body>
</html>
`;
}
