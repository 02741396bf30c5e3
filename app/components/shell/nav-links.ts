import {
  Bell,
  BookOpen,
  Briefcase,
  CircleHelp,
  FileText,
  Handshake,
  House,
  Map,
  PiggyBank,
  Scale,
  Settings,
  TrendingUp,
  type LucideIcon,
} from "~/components/ui/icons.generated";
import type { IconData } from "~/components/ui/lucide-icon";
// Types only: the shell's bundle carries the navigation's paths, labels and icons, never the page
// list (app/content/pages.ts, with every page's title and description). A path here that is not a
// page's fails `npm run typecheck`.
import type { PagePath } from "~/content/pages";

/**
 * The navigation's one source: the sidebar's Company and Utility groups and the footer's quick
 * links, in the product's order and wording. The browser tests and docs/product.md read the
 * orders from here.
 */
export interface NavLinkItem<Path extends string = string> {
  path: Path;
  label: string;
  icon: LucideIcon;
  badge?: number;
}

/** An admin page's sidebar entry: it comes with the root loader's data, to admins only (admin-links.server.ts). */
export interface AdminLink {
  path: string;
  label: string;
  icon: IconData;
}

/** The notifications badge is a fixed 3 (the notifications are static samples). */
const NOTIFICATIONS_BADGE = 3;

export const COMPANY_LINKS: readonly NavLinkItem<PagePath>[] = [
  { path: "/portfolio", label: "Portfolio", icon: Briefcase },
  { path: "/blog", label: "Blog", icon: BookOpen },
  { path: "/investors", label: "Investors", icon: TrendingUp },
  { path: "/funding", label: "Funding", icon: PiggyBank },
  { path: "/documents", label: "Documents", icon: FileText },
  { path: "/partners", label: "Partners", icon: Handshake },
  { path: "/legal", label: "Legal", icon: Scale },
  { path: "/sitemap", label: "Sitemap", icon: Map },
  { path: "/", label: "Home", icon: House },
];

/** The Utility group; an admin's pages come between Notifications and Help (UTILITY_ADMIN_AFTER). */
export const UTILITY_LINKS: readonly NavLinkItem<PagePath>[] = [
  { path: "/notifications", label: "Notifications", icon: Bell, badge: NOTIFICATIONS_BADGE },
  { path: "/help", label: "Help", icon: CircleHelp },
  { path: "/settings", label: "Settings", icon: Settings },
];

/** How many Utility links come before the admin pages' entries. */
export const UTILITY_ADMIN_AFTER = 1;

/** The footer's quick links. */
export const FOOTER_QUICK_LINKS: readonly { label: string; to: PagePath }[] = [
  { label: "Investors", to: "/investors" },
  { label: "Funding", to: "/funding" },
  { label: "Portfolio", to: "/portfolio" },
  { label: "Store", to: "/store" },
  { label: "Legal", to: "/legal" },
  { label: "Partners", to: "/partners" },
  { label: "Sitemap", to: "/sitemap" },
];

/** The footer's Terms and Privacy links. */
export const LEGAL_PATH: PagePath = "/legal";

export const LOGIN_PATH = "/api/login";
export const LOGOUT_PATH = "/api/logout";

/** Both / and /home count as home (both routes render it). */
export function isActivePath(linkPath: string, pathname: string): boolean {
  if (linkPath === "/") return pathname === "/" || pathname === "/home";
  return pathname === linkPath || pathname.startsWith(`${linkPath}/`);
}

/** 'Quick find...': case-insensitive substring of the name or the tagline. */
export function filterVentures<T extends { name: string; tagline: string }>(list: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((s) => s.name.toLowerCase().includes(q) || s.tagline.toLowerCase().includes(q));
}
