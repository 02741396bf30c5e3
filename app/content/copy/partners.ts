import type { Card } from "./types";

export const partnersCopy = {
  intro: "Partner with AFX Holding Group and reach every venture of our portfolio at once.",
  benefitsHeading: "Partner Benefits",
  benefits: [
    "Access to nine ventures and their customers through one relationship",
    "Joint marketing across the group's channels and newsletter",
    "Early access to new ventures and products",
    "A named contact at the group for every partnership",
  ],
  typesHeading: "Partnership Types",
  types: [
    { title: "Technology Partners", text: "Integrate your platform or services with our ventures' products." },
    { title: "Distribution Partners", text: "Bring our products to your customers and markets." },
    { title: "Strategic Alliances", text: "Long-term collaborations on shared goals and ventures." },
    { title: "Affiliate Partners", text: "Recommend our products and earn a commission on every sale." },
  ] satisfies Card[],
  ctaHeading: "Become a partner",
  emailCta: "Email Us",
  callCta: "Call Us",
} as const;
