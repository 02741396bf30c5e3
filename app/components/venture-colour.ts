import type { Subsidiary } from "~/content/subsidiaries";

/**
 * A venture's colour behind its tile (sidebar, cards, documents, the detail page's header) is a
 * class, not a style attribute: the CSP allows no inline style (docs/decisions/062-styles-by-hash.md).
 */
export function ventureBackgroundClass(id: string): string {
  return `venture-bg-${id}`;
}

/**
 * The rules for those classes, one per venture of the catalogue (its `primaryColor` stays the one
 * source of the colour), appended to the inlined stylesheet (shell/stylesheet.server.ts).
 */
export function ventureBackgroundRules(ventures: readonly Pick<Subsidiary, "id" | "primaryColor">[]): string {
  return ventures
    .map(({ id, primaryColor }) => {
      // Both come from the catalogue; a malformed one must fail the build, not the stylesheet.
      if (!/^[a-z0-9-]+$/.test(id) || /[;{}<]/.test(primaryColor))
        throw new Error(`venture ${id}: not a CSS class name or colour`);
      return `.${ventureBackgroundClass(id)}{background-color:${primaryColor}}`;
    })
    .join("");
}
