/**
 * The ventures' shape and words. The catalogue itself is in D1 (app/features/ventures, docs/ventures.md);
 * `STARTING_VENTURES` are the nine it is seeded with, and VENTURE_DOMAINS / SUBSIDIARY_VIDEOS
 * (parseDomainConfig, parseVideoConfig) are read once, by that seed.
 */
export const STAGES = {
  ideation: "Ideation",
  "mvp-development": "MVP Development",
  "beta-testing": "Beta Testing",
  validation: "Validation",
  "live-in-market": "Live in Market",
} as const;

export type Stage = keyof typeof STAGES;

/** Names of lucide-react icons; resolved to components in app/features/ventures/venture-icon.tsx. */
export type VentureIconName = (typeof VENTURE_ICONS)[number];

/**
 * The colours a venture's tile may take: the stylesheet has one class per key (venture-colour.ts),
 * so a colour is chosen from these, never typed in.
 */
export const VENTURE_COLOURS = {
  green: "hsl(142 71% 36%)",
  blue: "hsl(221 83% 53%)",
  orange: "hsl(25 95% 45%)",
  pink: "hsl(330 81% 50%)",
  amber: "hsl(38 92% 40%)",
  red: "hsl(0 72% 46%)",
  sky: "hsl(199 89% 38%)",
  violet: "hsl(262 83% 58%)",
  teal: "hsl(173 80% 30%)",
} as const;

export type VentureColour = keyof typeof VENTURE_COLOURS;

/** The icons a venture may show (lucide-react names; app/features/ventures/venture-icon.tsx). */
export const VENTURE_ICONS = [
  "DollarSign",
  "Landmark",
  "ChefHat",
  "Baby",
  "Dog",
  "Newspaper",
  "Truck",
  "MapPin",
  "Users",
] as const;

export interface Venture {
  id: string;
  name: string;
  /**
   * Host name of the venture's website (the catalogue's `website`): unset until the group states
   * it, and then the venture has no outbound link, frame or CSP entry.
   */
  domain?: string;
  /** The website's address, an https:// URL (its host is `domain`). */
  website?: string;
  tagline: string;
  description: string;
  /** Its tile's colour, a key of VENTURE_COLOURS. */
  colour: VentureColour;
  icon: VentureIconName;
  /** The logo's address (`/ventures/logos/<sha256>.<ext>`, immutable), drawn 48 × 48; unset: the icon. */
  logo?: string;
  /** A YouTube video id, set by an admin (or seeded once from SUBSIDIARY_VIDEOS), never invented. */
  youtubeVideoId?: string;
  status: Stage;
}

/** The nine ventures the catalogue starts with (app/features/ventures/seed.server.ts), as they rendered before it. */
export const STARTING_VENTURES: readonly Venture[] = [
  {
    id: "fiscal-me",
    name: "FiscalMe",
    tagline: "Fintech tools for modern finance",
    description:
      "Personal finance and bookkeeping tools that make budgeting, taxes and planning approachable for everyday people and small businesses.",
    colour: "green",
    icon: "DollarSign",
    status: "mvp-development",
  },
  {
    id: "gaas",
    name: "GaaS",
    tagline: "Government as a Service",
    description:
      "Digital services that help local governments and citizens handle permits, requests and public records with less paperwork.",
    colour: "blue",
    icon: "Landmark",
    status: "mvp-development",
  },
  {
    id: "gastrotech",
    name: "GastroTech",
    tagline: "Food cycle technology reimagined",
    description:
      "Technology across the food cycle, from sourcing and kitchens to reducing waste, for restaurants and food producers.",
    colour: "orange",
    icon: "ChefHat",
    status: "mvp-development",
  },
  {
    id: "how-to-raise",
    name: "How To Raise",
    tagline: "Family support for childhood development",
    description:
      "Guidance and resources that support parents and caregivers through every stage of a child's development.",
    colour: "pink",
    icon: "Baby",
    status: "mvp-development",
  },
  {
    id: "park-your-pup",
    name: "Park Your Pup",
    tagline: "The ultimate pet boarding experience",
    description:
      "Pet boarding and day care that owners can book with confidence, with trusted carers and updates while they are away.",
    colour: "amber",
    icon: "Dog",
    status: "mvp-development",
  },
  {
    id: "snews",
    name: "SNews",
    tagline: "Slow, substantial journalism",
    description: "Independent journalism that takes its time: fewer stories, researched in depth and written to last.",
    colour: "red",
    icon: "Newspaper",
    status: "mvp-development",
  },
  {
    id: "vctr",
    name: "VCTR",
    tagline: "Transportation, logistics, civil infrastructure",
    description:
      "Software and services for transportation, logistics and the civil infrastructure that moves people and goods.",
    colour: "sky",
    icon: "Truck",
    status: "mvp-development",
  },
  {
    id: "your-sign-is-out",
    name: "Your Sign Is Out",
    tagline: "Maintain and address signage issues",
    description:
      "Reporting and maintenance for business signage, so a broken or unlit sign is noticed and fixed quickly.",
    colour: "violet",
    icon: "MapPin",
    status: "mvp-development",
  },
  {
    id: "youtopia",
    name: "YouTopia",
    tagline: "Ethical social media - coming soon",
    description:
      "A social network built around wellbeing and respect for its members' data, without manipulative feeds. Coming soon.",
    colour: "teal",
    icon: "Users",
    status: "mvp-development",
  },
];

/** Old and shortcut ids (the sidebar's short links, earlier names) that redirect to the canonical id. */
export const VENTURE_ALIASES: Readonly<Record<string, string>> = {
  fiscalme: "fiscal-me",
  "get-gaas": "gaas",
  "snews-press": "snews",
};

/** One of the starting ventures (the seed and its configuration; pages read the catalogue). */
export function startingVenture(id: string): Venture | undefined {
  return STARTING_VENTURES.find((s) => s.id === id);
}

/** The venture's website, or undefined while no domain is configured for it. */
export function ventureUrl(s: Pick<Venture, "domain" | "website">): string | undefined {
  return s.website ?? (s.domain ? `https://${s.domain}` : undefined);
}

/** YouTube video ids are 11 characters of the URL-safe base64 alphabet. */
export const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * Parses SUBSIDIARY_VIDEOS ("fiscal-me=VIDEOID,gaas=VIDEOID"): the group's videos come from
 * configuration, so none is made up here. Unknown ids and malformed video ids are ignored.
 */
export function parseVideoConfig(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? "").split(",")) {
    const [id, video] = pair.split("=").map((part) => part?.trim() ?? "");
    if (id && video && startingVenture(id) && VIDEO_ID.test(video)) out[id] = video;
  }
  return out;
}

/**
 * A public DNS name: two or more labels of letters, digits and inner hyphens, a letter (or
 * punycode) top-level label, at most 253 characters. No scheme, port, path, IP or "localhost".
 */
export const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

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
    if (id && domain && extra === undefined && startingVenture(id) && HOST.test(domain)) out[id] = domain;
  }
  return out;
}

/** The list with configured video ids filled in (the seed's, once). */
export function withVideos(list: readonly Venture[], videos: Readonly<Record<string, string>> | undefined): Venture[] {
  return list.map((s) => (videos?.[s.id] ? { ...s, youtubeVideoId: videos[s.id] } : s));
}

/** Origins the subsidiary detail page may frame: the ventures' website hosts and their www. hosts. */
export function embeddableOrigins(domains: Readonly<Record<string, string>>): string[] {
  return Object.values(domains).flatMap((d) =>
    d.startsWith("www.") ? [`https://${d}`] : [`https://${d}`, `https://www.${d}`],
  );
}
