import { VENTURE_COLOURS, type VentureColour } from "~/content/ventures";

/**
 * A venture's colour behind its tile (sidebar, cards, documents, the detail page's header) is a
 * class, not a style attribute: the CSP allows no inline style (docs/decisions/062-styles-by-hash.md).
 * The catalogue in D1 names one of the palette's colours; the stylesheet (fixed per build) has a
 * class for each.
 */
export function ventureBackgroundClass(colour: VentureColour): string {
  return `venture-bg-${colour}`;
}

/** The rules for those classes, one per palette colour, appended to the inlined stylesheet. */
export function ventureBackgroundRules(): string {
  return Object.entries(VENTURE_COLOURS)
    .map(([colour, css]) => `.${ventureBackgroundClass(colour as VentureColour)}{background-color:${css}}`)
    .join("");
}
