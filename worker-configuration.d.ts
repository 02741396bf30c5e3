// Bindings and variables of the worker (wrangler.toml [vars], .dev.vars secrets, bindings).
declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    /** "production" turns on the start-up checks of the configuration; anything else is local. */
    ENVIRONMENT?: string;
    ASSETS?: Fetcher;
    SITE_URL: string;
    BLOG_FEED_URL: string;
    OAUTH_ISSUER: string;
    OAUTH_CLIENT_ID: string;
    OAUTH_CLIENT_SECRET: string;
    SESSION_SECRET: string;
    ADMIN_EMAILS: string;
    CONTACT_PHONE: string;
    CONTACT_EMAIL: string;
    INVESTOR_EMAIL: string;
    STORE_URL: string;
    LINKEDIN_URL: string;
    LEADS_RATE_LIMIT: string;
    /** "subsidiary-id=youtubeVideoId,..."; empty until the group gives its videos. */
    SUBSIDIARY_VIDEOS?: string;
    /** "off" disables the server-side framing check of the ventures' sites. */
    EMBED_CHECK?: string;
  }
}
interface Env extends Cloudflare.Env {}
