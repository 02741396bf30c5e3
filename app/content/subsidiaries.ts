/**
 * The group's ventures: the single source of truth for every page, the sidebar, the sitemap,
 * the documents catalogue and the CSP's frame-src. Nine ventures, all in MVP development; their
 * domains and videos are configuration (parseDomainConfig, parseVideoConfig).
 */
export const STAGES = {
  ideation: "Ideation",
  "mvp-development": "MVP Development",
  "beta-testing": "Beta Testing",
  validation: "Validation",
  "live-in-market": "Live in Market",
} as const;

export type Stage = keyof typeof STAGES;

/** Names of lucide-react icons; resolved to components in app/components/subsidiary-icon.tsx. */
export type SubsidiaryIconName =
  "DollarSign" | "Landmark" | "ChefHat" | "Baby" | "Dog" | "Newspaper" | "Truck" | "MapPin" | "Users";

export interface Subsidiary {
  id: string;
  name: string;
  /**
   * Bare host name of the venture's website, from configuration (VENTURE_DOMAINS): unset until
   * the group confirms it, and then the venture has no outbound link, frame or CSP entry.
   */
  domain?: string;
  tagline: string;
  description: string;
  /** CSS colour, an hsl() string. */
  primaryColor: string;
  icon: SubsidiaryIconName;
  /**
   * Path of the logo under public/documents/{id}/. None of the ventures' logo files are in the repo
   * yet, so every venture shows its icon until the group adds them (docs/decisions/003).
   */
  logo?: string;
  /** Set from configuration (SUBSIDIARY_VIDEOS), never invented: see withVideos(). */
  youtubeVideoId?: string;
  status: Stage;
}

export const subsidiaries: readonly Subsidiary[] = [
  {
    id: "fiscal-me",
    name: "FiscalMe",
    tagline: "Fintech tools for modern finance",
    description:
      "Personal finance and bookkeeping tools that make budgeting, taxes and planning approachable for everyday people and small businesses.",
    primaryColor: "hsl(142 71% 36%)",
    icon: "DollarSign",
    status: "mvp-development",
  },
  {
    id: "gaas",
    name: "GaaS",
    tagline: "Government as a Service",
    description:
      "Digital services that help local governments and citizens handle permits, requests and public records with less paperwork.",
    primaryColor: "hsl(221 83% 53%)",
    icon: "Landmark",
    status: "mvp-development",
  },
  {
    id: "gastrotech",
    name: "GastroTech",
    tagline: "Food cycle technology reimagined",
    description:
      "Technology across the food cycle, from sourcing and kitchens to reducing waste, for restaurants and food producers.",
    primaryColor: "hsl(25 95% 45%)",
    icon: "ChefHat",
    status: "mvp-development",
  },
  {
    id: "how-to-raise",
    name: "How To Raise",
    tagline: "Family support for childhood development",
    description:
      "Guidance and resources that support parents and caregivers through every stage of a child's development.",
    primaryColor: "hsl(330 81% 50%)",
    icon: "Baby",
    status: "mvp-development",
  },
  {
    id: "park-your-pup",
    name: "Park Your Pup",
    tagline: "The ultimate pet boarding experience",
    description:
      "Pet boarding and day care that owners can book with confidence, with trusted carers and updates while they are away.",
    primaryColor: "hsl(38 92% 40%)",
    icon: "Dog",
    status: "mvp-development",
  },
  {
    id: "snews",
    name: "SNews",
    tagline: "Slow, substantial journalism",
    description: "Independent journalism that takes its time: fewer stories, researched in depth and written to last.",
    primaryColor: "hsl(0 72% 46%)",
    icon: "Newspaper",
    status: "mvp-development",
  },
  {
    id: "vctr",
    name: "VCTR",
    tagline: "Transportation, logistics, civil infrastructure",
    description:
      "Software and services for transportation, logistics and the civil infrastructure that moves people and goods.",
    primaryColor: "hsl(199 89% 38%)",
    icon: "Truck",
    status: "mvp-development",
  },
  {
    id: "your-sign-is-out",
    name: "Your Sign Is Out",
    tagline: "Maintain and address signage issues",
    description:
      "Reporting and maintenance for business signage, so a broken or unlit sign is noticed and fixed quickly.",
    primaryColor: "hsl(262 83% 58%)",
    icon: "MapPin",
    status: "mvp-development",
  },
  {
    id: "youtopia",
    name: "YouTopia",
    tagline: "Ethical social media - coming soon",
    description:
      "A social network built around wellbeing and respect for its members' data, without manipulative feeds. Coming soon.",
    primaryColor: "hsl(173 80% 30%)",
    icon: "Users",
    status: "mvp-development",
  },
];

/** Old and shortcut ids (the sidebar's short links, earlier names) that redirect to the canonical id. */
export const SUBSIDIARY_ALIASES: Readonly<Record<string, string>> = {
  fiscalme: "fiscal-me",
  "get-gaas": "gaas",
  "snews-press": "snews",
};

export function getSubsidiary(id: string): Subsidiary | undefined {
  return subsidiaries.find((s) => s.id === id);
}

/** The venture's website, or undefined while no domain is configured for it. */
export function subsidiaryUrl(s: Pick<Subsidiary, "domain">): string | undefined {
  return s.domain ? `https://${s.domain}` : undefined;
}

/** YouTube video ids are 11 characters of the URL-safe base64 alphabet. */
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * Parses SUBSIDIARY_VIDEOS ("fiscal-me=VIDEOID,gaas=VIDEOID"): the group's videos come from
 * configuration, so none is made up here. Unknown ids and malformed video ids are ignored.
 */
export function parseVideoConfig(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? "").split(",")) {
    const [id, video] = pair.split("=").map((part) => part?.trim() ?? "");
    if (id && video && getSubsidiary(id) && VIDEO_ID.test(video)) out[id] = video;
  }
  return out;
}

/** The catalogue with the configured video ids filled in. */
export function withVideos(
  list: readonly Subsidiary[],
  videos: Readonly<Record<string, string>> | undefined,
): Subsidiary[] {
  return list.map((s) => (videos?.[s.id] ? { ...s, youtubeVideoId: videos[s.id] } : s));
}

/**
 * A public DNS name: two or more labels of letters, digits and inner hyphens, a letter (or
 * punycode) top-level label, at most 253 characters. No scheme, port, path, IP or "localhost".
 */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Parses VENTURE_DOMAINS ("fiscal-me=fiscalme.example,gaas=gaas.example"): a venture's domain
 * is the group's to state, so none is guessed here. An entry counts only when its id is one of
 * the catalogue's (not an alias) and its value is a bare host name (case-insensitive, stored in
 * lower case); anything else is ignored. A repeated id keeps its last entry.
 */
export function parseDomainConfig(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? "").split(",")) {
    const [id, host, extra] = pair.split("=").map((part) => part?.trim() ?? "");
    const domain = host?.toLowerCase();
    if (id && domain && extra === undefined && getSubsidiary(id) && HOST.test(domain)) out[id] = domain;
  }
  return out;
}

/** The catalogue with the configured domains filled in. */
export function withDomains(
  list: readonly Subsidiary[],
  domains: Readonly<Record<string, string>> | undefined,
): Subsidiary[] {
  return list.map((s) => withDomain(s, domains));
}

/** One venture with its configured domain, if any. */
export function withDomain(subsidiary: Subsidiary, domains: Readonly<Record<string, string>> | undefined): Subsidiary {
  const domain = domains?.[subsidiary.id];
  return domain ? { ...subsidiary, domain } : subsidiary;
}

/** Origins the subsidiary detail page may frame: the configured domains and their www. hosts. */
export function embeddableOrigins(domains: Readonly<Record<string, string>>): string[] {
  return Object.values(domains).flatMap((d) =>
    d.startsWith("www.") ? [`https://${d}`] : [`https://${d}`, `https://www.${d}`],
  );
}
