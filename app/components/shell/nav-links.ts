import {
  Bell,
  BookOpen,
  Briefcase,
  ChartColumn,
  CircleHelp,
  FileStack,
  FileText,
  Handshake,
  House,
  Inbox,
  Map,
  Newspaper,
  PiggyBank,
  Scale,
  Settings,
  TrendingUp,
  type LucideIcon,
} from "~/components/ui/icons.generated";
import { ADMIN_PAGE_KEYS, pages, type AdminPageKey, type PageInfo } from "~/content/pages";

/** The sidebar's Company and Utility groups, in the product's order and wording. */
export interface NavLinkItem {
  page: PageInfo;
  label: string;
  icon: LucideIcon;
  badge?: number;
}

/** The notifications badge is a fixed 3 (the notifications are static samples). */
const NOTIFICATIONS_BADGE = 3;

export const COMPANY_LINKS: readonly NavLinkItem[] = [
  { page: pages.portfolio, label: "Portfolio", icon: Briefcase },
  { page: pages.blog, label: "Blog", icon: BookOpen },
  { page: pages.investors, label: "Investors", icon: TrendingUp },
  { page: pages.funding, label: "Funding", icon: PiggyBank },
  { page: pages.documents, label: "Documents", icon: FileText },
  { page: pages.partners, label: "Partners", icon: Handshake },
  { page: pages.legal, label: "Legal", icon: Scale },
  { page: pages.sitemap, label: "Sitemap", icon: Map },
  { page: pages.home, label: "Home", icon: House },
];

/** Each admin page's sidebar icon; the compiler asks for one when a page is marked `admin`. */
const ADMIN_ICONS: Record<AdminPageKey, LucideIcon> = {
  leads: ChartColumn,
  messages: Inbox,
  documentLibrary: FileStack,
  newsAdmin: Newspaper,
};

/** The admin pages (app/content/pages.ts), labelled by their titles; the sidebar shows them to admins only. */
const ADMIN_LINKS: readonly NavLinkItem[] = ADMIN_PAGE_KEYS.map((key) => ({
  page: pages[key],
  label: pages[key].title,
  icon: ADMIN_ICONS[key],
}));

export const UTILITY_LINKS: readonly NavLinkItem[] = [
  { page: pages.notifications, label: "Notifications", icon: Bell, badge: NOTIFICATIONS_BADGE },
  ...ADMIN_LINKS,
  { page: pages.help, label: "Help", icon: CircleHelp },
  { page: pages.settings, label: "Settings", icon: Settings },
];

/** The footer's quick links. */
export const FOOTER_QUICK_LINKS: readonly { label: string; to: string }[] = [
  { label: "Investors", to: pages.investors.path },
  { label: "Funding", to: pages.funding.path },
  { label: "Portfolio", to: pages.portfolio.path },
  { label: "Store", to: pages.store.path },
  { label: "Legal", to: pages.legal.path },
  { label: "Partners", to: pages.partners.path },
  { label: "Sitemap", to: pages.sitemap.path },
];

export const LOGIN_PATH = "/api/login";
export const LOGOUT_PATH = "/api/logout";

/** Both / and /home count as home (both routes render it). */
export function isActivePath(linkPath: string, pathname: string): boolean {
  if (linkPath === "/") return pathname === "/" || pathname === "/home";
  return pathname === linkPath || pathname.startsWith(`${linkPath}/`);
}

/** 'Quick find...': case-insensitive substring of the name or the tagline. */
export function filterSubsidiaries<T extends { name: string; tagline: string }>(
  list: readonly T[],
  query: string,
): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((s) => s.name.toLowerCase().includes(q) || s.tagline.toLowerCase().includes(q));
}
