import { SITE } from "~/content/site";
import type { ListedDocument } from "./catalogue.server";

/**
 * The documents page's JSON-LD: a list of DigitalDocument entries, each with its file's URL,
 * format, size and date (public ones only: a members-only file is not described to crawlers).
 */
export function documentsJsonLd(siteUrl: string, documents: readonly ListedDocument[]) {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: documents
      .filter((d) => d.visibility === "public")
      .map((d, i) => ({
        "@type": "ListItem",
        position: i + 1,
        item: {
          "@type": "DigitalDocument",
          name: d.title,
          description: d.description,
          url: `${siteUrl}${d.path}`,
          encodingFormat: "application/pdf",
          contentSize: `${d.size} B`,
          dateModified: new Date(d.updatedAt).toISOString(),
          publisher: { "@type": "Organization", name: SITE.name },
        },
      })),
  };
}
