import type { Tile } from "./types";

export const portfolioCopy = {
  intro: "Every venture of AFX Holding Group, from fintech to journalism, in one unified ecosystem.",
  // SPEC.md §9: the portfolio page's reading.
  tiles: [
    { value: "9", label: "Active Ventures" },
    { value: "8", label: "Industry Sectors" },
    { value: "1", label: "Unified Ecosystem" },
  ] satisfies Tile[],
} as const;
