/** Facts about the group itself, used by the shell, metadata and structured data. */
export const SITE = {
  name: "AFX Holding Group",
  shortName: "AFX",
  defaultTitle: "AFX Holding Group | Digital Portfolio Hub",
  defaultDescription:
    "AFX Holding Group's digital portfolio hub: browse our ventures in fintech, food tech, government services, family support, pet care, journalism and logistics, and consider funding us.",
  foundingYear: 2020,
  copyrightYear: 2025,
  /** The group's claims that the landing copy states. */
  employeesClaim: "67000+",
  subscribersClaim: "67,000+",
} as const;
