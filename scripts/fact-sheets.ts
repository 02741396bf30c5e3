// The group's starting documents (docs/decisions/040-fact-sheets.md): an honest one-page fact
// sheet per venture and a corporate overview, drawn from the catalogues with pdf-lib. They are not
// part of the build: `npm run documents:seed` (scripts/documents-seed.mjs) puts them in an empty
// document library once, where admins replace them like any document.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from "pdf-lib";
import { CORPORATE_OVERVIEW, STARTING_DOCUMENTS, type DocumentEntry } from "../app/content/documents";
import type { StartingFile } from "../app/features/documents/starting.server";
import { formatIsoDate } from "../app/utils/format";
import { SITE } from "../app/content/site";
import { startingVenture, STAGES, STARTING_VENTURES, VENTURE_COLOURS } from "../app/content/ventures";

const PAGE = { width: 612, height: 792, margin: 56 }; // US Letter, points
// Fixed metadata dates keep the bytes identical from run to run; the seeded versions carry the same date.
const DOCUMENT_DATE = new Date("2024-01-15T00:00:00Z");

/** "hsl(142 71% 36%)" → pdf-lib colour. */
function hslToRgb(hsl: string): RGB {
  const m = hsl.match(/hsl\(\s*([\d.]+)\s+([\d.]+)%\s+([\d.]+)%\s*\)/);
  if (!m) return rgb(0.2, 0.2, 0.2);
  const [h, s, l] = [Number(m[1]), Number(m[2]) / 100, Number(m[3]) / 100];
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return rgb(f(0), f(8), f(4));
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

class Sheet {
  y = PAGE.height - PAGE.margin;
  constructor(
    readonly page: PDFPage,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {}
  text(text: string, { size = 11, bold = false, gap = 6, color = rgb(0.15, 0.15, 0.2) } = {}) {
    const font = bold ? this.bold : this.regular;
    for (const line of wrap(text, font, size, PAGE.width - 2 * PAGE.margin)) {
      this.y -= size * 1.35;
      this.page.drawText(line, { x: PAGE.margin, y: this.y, size, font, color });
    }
    this.y -= gap;
  }
}

async function newSheet(title: string, color: RGB, heading: string, subheading: string) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setAuthor(SITE.name);
  pdf.setCreator(SITE.name);
  pdf.setProducer("AFX Holding Group site build (pdf-lib)");
  pdf.setCreationDate(DOCUMENT_DATE);
  pdf.setModificationDate(DOCUMENT_DATE);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const sheet = new Sheet(
    page,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  page.drawRectangle({ x: 0, y: PAGE.height - 120, width: PAGE.width, height: 120, color });
  page.drawText(heading, { x: PAGE.margin, y: PAGE.height - 70, size: 26, font: sheet.bold, color: rgb(1, 1, 1) });
  page.drawText(subheading, {
    x: PAGE.margin,
    y: PAGE.height - 98,
    size: 12,
    font: sheet.regular,
    color: rgb(1, 1, 1),
  });
  sheet.y = PAGE.height - 150;
  return { pdf, sheet };
}

function footer(sheet: Sheet, doc: DocumentEntry) {
  sheet.y = PAGE.margin + 40;
  sheet.text(
    "This one-page fact sheet is generated from the group's public catalogue. Names and descriptions are placeholders until the group confirms them; ask our investor relations team for the full deck.",
    { size: 8, color: rgb(0.35, 0.35, 0.4) },
  );
  sheet.text(`${SITE.name} - last updated ${formatIsoDate(doc.lastUpdated)}`, { size: 8, color: rgb(0.35, 0.35, 0.4) });
}

async function pitchDeck(doc: DocumentEntry): Promise<Uint8Array> {
  const s = startingVenture(doc.ventureId!)!;
  const { pdf, sheet } = await newSheet(
    doc.title,
    hslToRgb(VENTURE_COLOURS[s.colour]),
    s.name,
    `${s.tagline} - Fact Sheet`,
  );
  sheet.text("About", { size: 14, bold: true });
  sheet.text(s.description, { gap: 14 });
  sheet.text("Stage", { size: 14, bold: true });
  sheet.text(STAGES[s.status], { gap: 14 });
  sheet.text("Part of AFX Holding Group", { size: 14, bold: true });
  sheet.text(
    `${s.name} is one of ${STARTING_VENTURES.length} ventures of ${SITE.name}, founded in ${SITE.foundingYear}. The group shares capital, people and tooling across its portfolio.`,
  );
  footer(sheet, doc);
  return pdf.save();
}

async function corporateOverview(doc: DocumentEntry): Promise<Uint8Array> {
  const { pdf, sheet } = await newSheet(doc.title, rgb(0.13, 0.2, 0.45), SITE.name, "Corporate Overview");
  sheet.text(SITE.defaultDescription, { gap: 12 });
  sheet.text(`Founded ${SITE.foundingYear}`, { size: 11, bold: true, gap: 12 });
  sheet.text(`Our ${STARTING_VENTURES.length} ventures`, { size: 14, bold: true });
  for (const s of STARTING_VENTURES) {
    sheet.text(`${s.name} - ${s.tagline}`, { bold: true, gap: 0 });
    // No website: the domains are runtime configuration, the sheets are built once.
    sheet.text(STAGES[s.status], { size: 10, gap: 6 });
  }
  footer(sheet, doc);
  return pdf.save();
}

/** The group's starting documents with their PDFs, as the library's seed takes them. */
export async function renderStartingDocuments(): Promise<StartingFile[]> {
  const out: StartingFile[] = [];
  for (const doc of STARTING_DOCUMENTS) {
    const bytes = doc === CORPORATE_OVERVIEW ? await corporateOverview(doc) : await pitchDeck(doc);
    out.push({
      path: doc.url,
      title: doc.title,
      description: doc.description,
      category: doc.category,
      ventureId: doc.ventureId ?? null,
      fileName: doc.url.split("/").pop()!,
      bytes: new Uint8Array(bytes),
      date: DOCUMENT_DATE.getTime(),
    });
  }
  return out;
}
