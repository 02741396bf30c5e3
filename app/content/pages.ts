import { SITE } from "./site";

/**
 * Every page of the site with its route, document title, h1 and description. Routes, the
 * sidebar, the sitemap and the smoke test read them from here.
 */
export interface PageInfo {
  path: string;
  /** Shown in the browser tab and search results (the suffix is added by pageMeta). */
  title: string;
  heading: string;
  description: string;
  /**
   * Admins only: every loader and action of its route calls `requireAdmin`, everyone else gets the
   * not-found page; listed in the sidebar for admins (its icon in components/shell/admin-links.server.ts), never in the
   * sitemaps or the public page lists. This flag is the one list of admin pages.
   */
  admin?: true;
}

export const pages = {
  home: {
    path: "/",
    title: SITE.defaultTitle,
    heading: SITE.name,
    description: SITE.defaultDescription,
  },
  portfolio: {
    path: "/portfolio",
    title: "Portfolio",
    heading: "Portfolio",
    description:
      "Every venture of AFX Holding Group: 9 active ventures across 8 industry sectors in 1 unified ecosystem.",
  },
  blog: {
    path: "/blog",
    title: "AFX Insights",
    heading: "AFX Insights",
    description: "News and insights from AFX Holding Group and its ventures, from our newsletter.",
  },
  investors: {
    path: "/investors",
    title: "Investors",
    heading: "Investors",
    description: "Why invest in AFX Holding Group: 11 active ventures, an impact focus and organic growth.",
  },
  funding: {
    path: "/funding",
    title: "Funding",
    heading: "Funding",
    description: "How AFX Holding Group funds its ventures, where we are today and how to partner with us.",
  },
  consultancy: {
    path: "/consultancy",
    title: "Consultancy",
    heading: "Consultancy",
    description: "What we look for in projects and how AFX Holding Group supports the ventures we consult for.",
  },
  store: {
    path: "/store",
    title: "Store",
    heading: "Store",
    description: "Physical goods, digital products and professional services from AFX Holding Group: 100+ products.",
  },
  legal: {
    path: "/legal",
    title: "Legal",
    heading: "Legal",
    description: "Terms of service and privacy policy of AFX Holding Group.",
  },
  partners: {
    path: "/partners",
    title: "Partners",
    heading: "Partners",
    description: "Technology, distribution, strategic alliance and affiliate partnerships with AFX Holding Group.",
  },
  sitemap: {
    path: "/sitemap",
    title: "Sitemap",
    heading: "Sitemap",
    description: "Every page of the AFX Holding Group site and every venture in its portfolio.",
  },
  settings: {
    path: "/settings",
    title: "Settings",
    heading: "Settings",
    description: "Your account and display settings.",
  },
  help: {
    path: "/help",
    title: "Help",
    heading: "Help",
    description: "Contact AFX Holding Group, book a session and find answers to common questions.",
  },
  notifications: {
    path: "/notifications",
    title: "Notifications",
    heading: "Notifications",
    description: "Your notifications from AFX Holding Group.",
  },
  documents: {
    path: "/documents",
    title: "Documents",
    heading: "Documents",
    description: "Corporate overview and pitch decks of AFX Holding Group's ventures, as PDF downloads.",
  },
  news: {
    path: "/news",
    title: "News",
    heading: "News",
    description: "News from AFX Holding Group and its ventures, newest first, with an Atom feed and e-mail alerts.",
  },
  events: {
    path: "/events",
    title: "Events",
    heading: "Events",
    description:
      "The group's calendar: investor days, demo days and webcasts, with calendar files and feeds to subscribe to.",
  },
  leads: {
    path: "/admin/leads",
    title: "Leads Dashboard",
    heading: "Leads Dashboard",
    description: "Newsletter subscribers, statistics and CSV export.",
    admin: true,
  },
  subscriberHandoff: {
    path: "/admin/subscribers/handoff",
    title: "Subscriber Hand-off",
    heading: "Subscriber Hand-off",
    description:
      "Hand the newsletter's subscribers to its host with their consent records, and end here who left there.",
    admin: true,
  },
  messages: {
    path: "/admin/messages",
    title: "Messages",
    heading: "Messages",
    description: "Messages sent with the Help page's contact form: open or answered, search and reply.",
    admin: true,
  },
  documentLibrary: {
    path: "/admin/documents",
    title: "Document Library",
    heading: "Document Library",
    description: "Upload, replace, publish and withdraw the investor documents of /documents.",
    admin: true,
  },
  newsAdmin: {
    path: "/admin/news",
    title: "News Admin",
    heading: "News",
    description: "Write, publish and unpublish the group's news; publishing can e-mail investor-alert subscribers.",
    admin: true,
  },
  eventsAdmin: {
    path: "/admin/events",
    title: "Events Admin",
    heading: "Events",
    description: "Create, change, cancel and delete the group's events; calendars that subscribed follow each change.",
    admin: true,
  },
  venturesAdmin: {
    path: "/admin/ventures",
    title: "Ventures",
    heading: "Ventures",
    description:
      "The portfolio: each venture's stage, logo, video, website and key facts, their order and which are shown.",
    admin: true,
  },
  roomsAdmin: {
    path: "/admin/rooms",
    title: "Investor Rooms",
    heading: "Investor Rooms",
    description:
      "Share a venture's confidential documents with named investors: each proves their address, accepts the NDA and reads a copy marked with their name.",
    admin: true,
  },
  investorsAdmin: {
    path: "/admin/investors",
    title: "Investor Pipeline",
    heading: "Investor Pipeline",
    description:
      "Every investor the rooms invited, once, with their firm, rooms and last activity, and their stage with each venture.",
    admin: true,
  },
} as const satisfies Record<string, PageInfo>;

type PageKey = keyof typeof pages;

/** Every page's path: the navigation names pages by path, checked against this type only. */
export type PagePath = (typeof pages)[PageKey]["path"];

/** The keys of the admin pages (those marked `admin: true`). */
export type AdminPageKey = { [K in PageKey]: (typeof pages)[K] extends { admin: true } ? K : never }[PageKey];

/** The admin-only pages, in the order of `pages` (the sidebar's order). */
export const ADMIN_PAGE_KEYS = (Object.keys(pages) as PageKey[]).filter(
  (key): key is AdminPageKey => "admin" in pages[key],
);
export const ADMIN_PAGES: readonly PageInfo[] = ADMIN_PAGE_KEYS.map((key) => pages[key]);
