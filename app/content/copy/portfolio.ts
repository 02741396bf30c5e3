import type { Tile } from "./types";

export const portfolioCopy = {
  intro: "Every venture of AFX Holding Group, from fintech to journalism, in one unified ecosystem.",
  // The portfolio page's reading of the figures.
  tiles: [
    { value: "9", label: "Active Ventures" },
    { value: "8", label: "Industry Sectors" },
    { value: "1", label: "Unified Ecosystem" },
  ] satisfies Tile[],
} as const;
