import type { MetaDescriptor } from "@remix-run/cloudflare";
import type { PageInfo } from "~/content/pages";
import { SITE } from "~/content/site";

type RootMatch = { id: string; data?: unknown };

/** SITE_URL from the root loader: canonical links must not trust the request's Host. */
export function siteUrlFrom(matches: readonly RootMatch[] | undefined): string {
  const root = matches?.find((m) => m.id === "root")?.data as { siteUrl?: string } | undefined;
  return (root?.siteUrl ?? "").replace(/\/$/, "");
}

/**
 * Every page's metadata: title, description, Open Graph and Twitter tags, a canonical link and
 * optional structured data.
 */
export function pageMeta({
  page,
  matches,
  path,
  jsonLd,
}: {
  page: Pick<PageInfo, "title" | "description"> & { path?: string };
  matches?: readonly RootMatch[];
  /** Canonical path; defaults to the page's own. */
  path?: string;
  jsonLd?: Record<string, unknown> | Record<string, unknown>[];
}): MetaDescriptor[] {
  const title = page.title === SITE.defaultTitle ? page.title : `${page.title} | ${SITE.name}`;
  const siteUrl = siteUrlFrom(matches);
  const canonicalPath = path ?? page.path;
  const url = siteUrl && canonicalPath ? `${siteUrl}${canonicalPath}` : undefined;
  const descriptors: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE.name },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
  ];
  if (url) {
    descriptors.push({ property: "og:url", content: url });
    descriptors.push({ tagName: "link", rel: "canonical", href: url });
  }
  for (const item of jsonLd ? (Array.isArray(jsonLd) ? jsonLd : [jsonLd]) : []) {
    descriptors.push({ "script:ld+json": item });
  }
  return descriptors;
}
