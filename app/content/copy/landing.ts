export const landingCopy = {
  headline: "A digital portfolio hub for ventures that matter",
  subheadline: "Browse our ventures and consider funding us!",
  cta: "Explore Portfolio",
  portfolioHeading: "Our Portfolio",
  portfolioIntro:
    "Fintech, food tech, government services, family support, pet care, journalism and logistics: every venture of the group in one place.",
  aboutHeading: "About AFX Holding Group",
  about: [
    "AFX Holding Group builds and runs a portfolio of small ventures, each solving a concrete problem for the people it serves.",
    "We share capital, people and tooling across the group so that every venture can grow organically and stay focused on impact.",
  ],
  connectHeading: "Ready to Connect?",
  connectText: "Sign in to follow our ventures, get updates and reach our team.",
  connectCta: "Get Started",
} as const;
