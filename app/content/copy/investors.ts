import type { Tile, Card } from "./types";

export const investorsCopy = {
  intro:
    "We build ventures that solve real problems and grow on their own merits. Invest alongside us in a diversified portfolio.",
  // The words beside the group's key fact "Active Ventures" (features/ventures/figures.ts).
  tiles: [
    { value: "Impact", label: "Focus" },
    { value: "Organic", label: "Growth" },
  ] satisfies Tile[],
  whyHeading: "Why Invest With Us",
  why: [
    {
      title: "Diversified portfolio",
      text: "One investment reaches ventures across finance, food, government, family, pets, media and logistics.",
    },
    {
      title: "Shared infrastructure",
      text: "Our ventures share teams, tooling and know-how, so capital goes further.",
    },
    {
      title: "Impact first",
      text: "Every venture addresses a concrete need, from childhood development to civil infrastructure.",
    },
    { title: "Organic growth", text: "We grow from customers and revenue, not from paid hype." },
  ] satisfies Card[],
  ctaHeading: "Talk to our investor relations team",
  emailCta: "Email Investor Relations",
  callCta: "Call Us",
} as const;
