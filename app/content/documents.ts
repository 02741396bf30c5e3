import { subsidiaries, type Subsidiary } from "./subsidiaries";

/**
 * The downloadable documents: one corporate overview and one pitch deck
 * per venture, all dated 2024-01-15. The PDFs are one-page fact sheets generated from the
 * catalogues at build time (scripts/fact-sheets.ts); their byte sizes reach the pages through the
 * `virtual:document-sizes` module, so the size shown is always the real file's.
 */
export const DOCUMENT_CATEGORIES = ["Corporate", "Pitch Decks"] as const;
type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];

export interface DocumentEntry {
  title: string;
  description: string;
  /** Path of the PDF under the site's origin. */
  url: string;
  category: DocumentCategory;
  /** ISO date. */
  lastUpdated: string;
  subsidiaryId?: string;
  primaryColor?: string;
}

const DOCUMENTS_LAST_UPDATED = "2024-01-15";

function pitchDeckUrl(id: string): string {
  return `/documents/subsidiaries/${id}/pitch-deck.pdf`;
}

export const CORPORATE_OVERVIEW: DocumentEntry = {
  title: "AFX Holding Group Corporate Overview",
  description: "Who we are, how the group works and every venture in our portfolio, on one page.",
  url: "/documents/corporate/afx-holding-group-overview.pdf",
  category: "Corporate",
  lastUpdated: DOCUMENTS_LAST_UPDATED,
};

function pitchDeck(s: Subsidiary): DocumentEntry {
  return {
    title: `${s.name} Pitch Deck`,
    description: `${s.tagline}: the venture's stage, focus and contact, as a one-page fact sheet.`,
    url: pitchDeckUrl(s.id),
    category: "Pitch Decks",
    lastUpdated: DOCUMENTS_LAST_UPDATED,
    subsidiaryId: s.id,
    primaryColor: s.primaryColor,
  };
}

export const documents: readonly DocumentEntry[] = [CORPORATE_OVERVIEW, ...subsidiaries.map(pitchDeck)];

/** "2.4 MB" style sizes, from a byte count. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
