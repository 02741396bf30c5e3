/** What the HTML sitemap (routes/sitemap.tsx) links, page by page. */
import { pages, type PageInfo } from "./pages";

export type SitemapEntry = { label: string; path: string; reload?: boolean };
const entry = (p: PageInfo, label = p.title): SitemapEntry => ({ label, path: p.path });

/**
 * The sitemap page's groups: Main Pages, Company, Account & Settings (then every venture, from
 * the catalogue). Every public page of pages.ts is in one: tests/unit/sitemap.test.ts holds it
 * without a build.
 */
export const SITEMAP_GROUPS: { id: string; heading: string; entries: SitemapEntry[] }[] = [
  {
    id: "main",
    heading: "Main Pages",
    entries: [entry(pages.home, "Home"), entry(pages.portfolio), entry(pages.blog), entry(pages.store)],
  },
  {
    id: "company",
    heading: "Company",
    entries: [
      entry(pages.investors),
      entry(pages.news),
      entry(pages.events),
      entry(pages.funding),
      entry(pages.consultancy),
      entry(pages.partners),
      entry(pages.documents),
      entry(pages.legal),
      entry(pages.sitemap),
    ],
  },
  {
    id: "account",
    heading: "Account & Settings",
    entries: [
      // A full navigation: /api/login starts the sign-in redirect.
      { label: "Log In", path: "/api/login", reload: true },
      entry(pages.settings),
      entry(pages.notifications),
      entry(pages.help),
    ],
  },
];
