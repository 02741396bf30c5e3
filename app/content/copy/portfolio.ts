import type { Tile } from "./types";

export const portfolioCopy = {
  intro: "Every venture of AFX Holding Group, from fintech to journalism, in one unified ecosystem.",
  // The figures besides the catalogue's count and the group's key facts (features/ventures/figures.ts).
  tiles: [{ value: "1", label: "Unified Ecosystem" }] satisfies Tile[],
} as const;
