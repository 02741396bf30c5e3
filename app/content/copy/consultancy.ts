import type { Card } from "./types";

export const consultancyCopy = {
  intro:
    "We consult for founders and organisations whose projects fit how we build. This is what we look for and how we help.",
  criteriaHeading: "What We Look For",
  criteria: [
    { title: "Innovation", text: "A new approach to a real problem, not a copy of what exists." },
    { title: "Market Fit", text: "Evidence that people need it and will pay for it." },
    { title: "Scalability", text: "A model that can grow without growing costs at the same pace." },
    { title: "Team", text: "Committed people with the skills, or the will to learn them." },
  ] satisfies Card[],
  supportHeading: "How We Support You",
  support: [
    { title: "Strategy", text: "Business models, positioning and roadmaps." },
    { title: "Product", text: "Design, engineering and launching a first version." },
    { title: "Go-to-market", text: "Brand, channels and the first customers." },
    { title: "Operations", text: "Finance, legal set-up and the shared services of the group." },
  ] satisfies Card[],
  ctaHeading: "Have a project in mind?",
  cta: "Submit Your Inquiry",
} as const;
