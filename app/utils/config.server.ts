import { parseDomainConfig, parseVideoConfig } from "~/content/subsidiaries";

/** The configuration the browser may see: contact details and outbound links, never secrets. */
export type PublicConfig = ReturnType<typeof publicConfig>;

export function publicConfig(env: Env) {
  return {
    siteUrl: env.SITE_URL,
    contact: {
      phone: env.CONTACT_PHONE,
      email: env.CONTACT_EMAIL,
      investorEmail: env.INVESTOR_EMAIL,
    },
    storeUrl: env.STORE_URL,
    linkedinUrl: env.LINKEDIN_URL,
    /** Subsidiary id → YouTube video id, for the cards' flip (SUBSIDIARY_VIDEOS). */
    videos: parseVideoConfig(env.SUBSIDIARY_VIDEOS),
    /** Subsidiary id → host name of its website (VENTURE_DOMAINS); a venture without one links nowhere. */
    domains: parseDomainConfig(env.VENTURE_DOMAINS),
  };
}
