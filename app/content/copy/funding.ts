import type { Card } from "./types";

export const fundingCopy = {
  intro:
    "We are seed-strapping: our ventures start lean on the group's own resources and raise outside capital only to grow what already works.",
  todayHeading: "Where We Are Today",
  modelHeading: "Partnership Models",
  models: [
    { title: "Equity partnership", text: "Invest in the group and share in the whole portfolio." },
    { title: "Venture investment", text: "Back a single venture whose mission matches yours." },
    { title: "Strategic partnership", text: "Bring capital together with expertise, distribution or technology." },
  ] satisfies Card[],
  reasonsHeading: "Why Fund AFX",
  reasons: [
    "Capital-efficient ventures that already share a team and a platform",
    "A portfolio spread across industries, which spreads the risk",
    "Transparent reporting and direct access to the founders",
    "Impact you can point to in everyday lives",
  ],
  ctaHeading: "Let's build together",
  cta: "Connect With Us",
} as const;
