/**
 * The watermark (docs/decisions/113): every page of a room's copy carries the investor's address
 * and the date as real text (Helvetica, a standard font: nothing embedded), a line along the foot
 * and a faint diagonal across the page, so any viewer shows it and a text search finds it. Pure
 * pdf-lib, no platform API: the worker and the benchmark (bench/) run the same code.
 */
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";

/** The words stamped on every page. */
export const stampText = (email: string, date: string) => `Confidential · prepared for ${email} · ${date}`;

export async function watermarkPdf(bytes: Uint8Array | ArrayBuffer, email: string, date: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const line = stampText(email, date);
  const diagonal = `${email} · ${date}`;
  for (const page of pdf.getPages()) {
    const { width, height } = page.getSize();
    const footSize = Math.max(6, Math.min(9, (width - 24) / font.widthOfTextAtSize(line, 1)));
    page.drawText(line, {
      x: Math.max(12, (width - font.widthOfTextAtSize(line, footSize)) / 2),
      y: 10,
      size: footSize,
      font,
      color: rgb(0.35, 0.35, 0.35),
    });
    const size = Math.min(36, (Math.hypot(width, height) * 0.7) / font.widthOfTextAtSize(diagonal, 1));
    const angle = Math.atan2(height, width);
    const textWidth = font.widthOfTextAtSize(diagonal, size);
    page.drawText(diagonal, {
      // Centred: start half the text's length back along the diagonal from the page's middle.
      x: width / 2 - (Math.cos(angle) * textWidth) / 2,
      y: height / 2 - (Math.sin(angle) * textWidth) / 2,
      size,
      font,
      color: rgb(0.6, 0.6, 0.6),
      opacity: 0.18,
      rotate: degrees((angle * 180) / Math.PI),
    });
  }
  return pdf.save({ useObjectStreams: true });
}
