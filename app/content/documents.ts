import { STARTING_VENTURES, VENTURE_COLOURS, type Venture } from "./ventures";

/**
 * The group's starting documents: one corporate overview and one pitch deck per venture, dated
 * 2024-01-15, drawn as one-page fact sheets (scripts/fact-sheets.ts) and seeded once into the
 * document library (`npm run documents:seed`), whose catalogue is the one source of `/documents`
 * from then on. Their URLs are the ones shared before the library existed, kept as their stable
 * URLs (docs/decisions/040-fact-sheets.md).
 */
export interface DocumentEntry {
  title: string;
  description: string;
  /** The stable URL's path. */
  url: string;
  /** Two of the library's categories (app/db/enums.ts); content imports no other layer. */
  category: "Corporate" | "Pitch Decks";
  /** ISO date. */
  lastUpdated: string;
  ventureId?: string;
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

function pitchDeck(s: Venture): DocumentEntry {
  return {
    title: `${s.name} Pitch Deck`,
    description: `${s.tagline}: the venture's stage, focus and contact, as a one-page fact sheet.`,
    url: pitchDeckUrl(s.id),
    category: "Pitch Decks",
    lastUpdated: DOCUMENTS_LAST_UPDATED,
    ventureId: s.id,
    primaryColor: VENTURE_COLOURS[s.colour],
  };
}

export const STARTING_DOCUMENTS: readonly DocumentEntry[] = [CORPORATE_OVERVIEW, ...STARTING_VENTURES.map(pitchDeck)];
