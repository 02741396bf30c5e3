import { Link, useLocation } from "@remix-run/react";
import { LogIn, LogOut, Search } from "~/components/ui/icons.generated";
import { useId, useRef, useState, type ReactNode } from "react";
import { cn } from "~/components/ui/cn";
import { ventureBackgroundClass } from "~/features/ventures/venture-colour";
import { useOptionalUser, userDisplayName, userInitials, type CurrentUser } from "~/features/auth/user";
import { iconFromData } from "~/components/ui/lucide-icon";
import { useRootData } from "~/root-data";
import {
  COMPANY_LINKS,
  filterVentures,
  isActivePath,
  LOGIN_PATH,
  LOGOUT_PATH,
  UTILITY_ADMIN_AFTER,
  UTILITY_LINKS,
  type NavLinkItem,
} from "./nav-links";
import { useSearchFocus, useSidebar } from "./sidebar-context";
import { WithTooltip } from "./with-tooltip";

/**
 * The floating sidebar. On desktop an <aside> whose state (icon, expanded,
 * hidden) comes from the sidebar_state cookie on the server, so the first paint is already right;
 * under 768 px an off-canvas sheet (see MobileMenu in header.tsx for the no-JavaScript fallback).
 */
export function DesktopSidebar() {
  const { state } = useSidebar();
  return (
    <aside
      aria-label="Sidebar"
      data-state={state}
      data-testid="desktop-sidebar"
      className="sidebar fixed bottom-2 left-2 top-16 z-30 hidden flex-col overflow-hidden rounded-xl border border-border bg-card text-card-foreground shadow-lg md:flex"
    >
      <SidebarBody collapsed={state === "icon"} />
    </aside>
  );
}

/** The sidebar's content, shared by the desktop aside, the mobile sheet and the no-JS menu. */
export function SidebarBody({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const user = useOptionalUser();
  const { pathname } = useLocation();
  // An admin's pages come with the root loader's data (empty for everyone else).
  const adminLinks = useRootData()?.adminLinks ?? [];
  const utility: readonly NavLinkItem[] = [
    ...UTILITY_LINKS.slice(0, UTILITY_ADMIN_AFTER),
    ...adminLinks.map((link) => ({ ...link, icon: iconFromData(link.icon) })),
    ...UTILITY_LINKS.slice(UTILITY_ADMIN_AFTER),
  ];
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <UserHeader user={user} collapsed={collapsed} />
      <QuickFind collapsed={collapsed} />
      <nav aria-label="Main" className="scroll-shadows min-h-0 flex-1 overflow-y-auto overflow-x-hidden px-2 pb-3">
        <VentureGroup collapsed={collapsed} pathname={pathname} onNavigate={onNavigate} />
        <NavGroup title="Company" collapsed={collapsed}>
          {COMPANY_LINKS.map((item) => (
            <NavItem key={item.path} item={item} collapsed={collapsed} pathname={pathname} onNavigate={onNavigate} />
          ))}
        </NavGroup>
        <NavGroup title="Utility" collapsed={collapsed}>
          {utility.map((item) => (
            <NavItem key={item.path} item={item} collapsed={collapsed} pathname={pathname} onNavigate={onNavigate} />
          ))}
          {/* No "Log In" on an /admin/… path for a visitor: its answer (the not-found page, 404) is
              the same for every such path, and must not invite a sign-in to a page that may exist. */}
          {user || !isAdminPath(pathname) ? (
            <li>
              {/* A full navigation: the session ends on the server. */}
              <WithTooltip delayDuration={0} label={user ? "Log Out" : "Log In"} disabled={!collapsed}>
                <a href={user ? LOGOUT_PATH : LOGIN_PATH} className={itemClass(false, collapsed)}>
                  {user ? (
                    <LogOut aria-hidden="true" className="size-4 shrink-0" />
                  ) : (
                    <LogIn aria-hidden="true" className="size-4 shrink-0" />
                  )}
                  <span data-nav-label className={cn(collapsed && "sr-only")}>
                    {user ? "Log Out" : "Log In"}
                  </span>
                </a>
              </WithTooltip>
            </li>
          ) : null}
        </NavGroup>
      </nav>
    </div>
  );
}

const isAdminPath = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/");

function itemClass(active: boolean, collapsed: boolean) {
  return cn(
    "flex items-center gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-accent hover:text-foreground",
    active ? "bg-accent font-medium text-foreground" : "text-muted-foreground",
    collapsed && "justify-center px-0",
  );
}

function UserHeader({ user, collapsed }: { user: CurrentUser | null; collapsed: boolean }) {
  const [imageFailed, setImageFailed] = useState(false);
  if (!user) return null;
  const name = userDisplayName(user);
  return (
    <div
      className={cn("flex items-center gap-3 border-b border-border p-3", collapsed && "justify-center px-1")}
      data-testid="sidebar-user"
    >
      <span className="relative flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary text-xs font-semibold text-primary-foreground">
        {user.profileImageUrl && !imageFailed ? (
          <img
            src={user.profileImageUrl}
            alt=""
            className="size-full object-cover"
            onError={() => setImageFailed(true)}
          />
        ) : (
          <span aria-hidden="true">{userInitials(user)}</span>
        )}
      </span>
      <div className={cn("min-w-0", collapsed && "sr-only")}>
        <p className="truncate text-sm font-medium">{name}</p>
        {user.email ? <p className="truncate text-xs text-muted-foreground">{user.email}</p> : null}
      </div>
    </div>
  );
}

function QuickFind({ collapsed }: { collapsed: boolean }) {
  const { query, setQuery, focusSearch } = useSidebar();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useSearchFocus(input);
  if (collapsed) {
    return (
      <div className="flex justify-center p-2">
        <WithTooltip delayDuration={0} label="Quick find">
          <button type="button" onClick={focusSearch} className={itemClass(false, true) + " size-8"}>
            <Search aria-hidden="true" className="size-4" />
            <span className="sr-only">Quick find</span>
          </button>
        </WithTooltip>
      </div>
    );
  }
  return (
    <div className="p-2" role="search">
      <label htmlFor={id} className="sr-only">
        Quick find subsidiaries
      </label>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <input
          ref={input}
          id={id}
          type="search"
          placeholder="Quick find..."
          autoComplete="off"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          className="h-9 w-full rounded-md border border-border bg-background pl-8 pr-2 text-sm placeholder:text-muted-foreground"
        />
      </div>
    </div>
  );
}

function NavGroup({ title, collapsed, children }: { title: string; collapsed: boolean; children: ReactNode }) {
  const id = useId();
  return (
    // A group, not a region: pages such as /sitemap have their own "Company" landmarks.
    <div role="group" aria-labelledby={id} className="mt-3">
      <h2
        id={id}
        className={cn(
          "px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground",
          collapsed && "sr-only",
        )}
      >
        {title}
      </h2>
      <ul className="flex flex-col gap-0.5">{children}</ul>
    </div>
  );
}

function VentureGroup({
  collapsed,
  pathname,
  onNavigate,
}: {
  collapsed: boolean;
  pathname: string;
  onNavigate?: () => void;
}) {
  const { query } = useSidebar();
  const shown = filterVentures(useRootData()?.ventures ?? [], query);
  return (
    <NavGroup title="Subsidiaries" collapsed={collapsed}>
      {shown.map((s) => {
        const to = `/subsidiary/${s.id}`;
        const active = isActivePath(to, pathname);
        return (
          <li key={s.id}>
            <WithTooltip delayDuration={0} label={s.name} disabled={!collapsed}>
              <Link
                to={to}
                prefetch="intent"
                aria-current={active ? "page" : undefined}
                onClick={onNavigate}
                className={itemClass(active, collapsed)}
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    "flex size-5 shrink-0 items-center justify-center rounded text-[0.65rem] font-bold text-white",
                    ventureBackgroundClass(s.colour),
                  )}
                >
                  {s.name[0]}
                </span>
                <span data-nav-label className={cn("truncate", collapsed && "sr-only")}>
                  {s.name}
                </span>
              </Link>
            </WithTooltip>
          </li>
        );
      })}
      {shown.length === 0 ? (
        <li className={cn("px-2 py-1.5 text-sm text-muted-foreground", collapsed && "sr-only")} role="status">
          No matches
        </li>
      ) : null}
    </NavGroup>
  );
}

function NavItem({
  item,
  collapsed,
  pathname,
  onNavigate,
}: {
  item: NavLinkItem;
  collapsed: boolean;
  pathname: string;
  onNavigate?: () => void;
}) {
  const active = isActivePath(item.path, pathname);
  const Icon = item.icon;
  return (
    <li>
      <WithTooltip delayDuration={0} label={item.label} disabled={!collapsed}>
        <Link
          to={item.path}
          prefetch="intent"
          aria-current={active ? "page" : undefined}
          onClick={onNavigate}
          className={cn(itemClass(active, collapsed), "relative")}
        >
          <Icon aria-hidden="true" className="size-4 shrink-0" />
          <span data-nav-label className={cn("flex-1 truncate", collapsed && "sr-only")}>
            {item.label}
          </span>
          {item.badge ? (
            <span
              data-testid="nav-badge"
              className={cn(
                "rounded-full bg-primary px-1.5 text-xs font-semibold leading-5 text-primary-foreground",
                collapsed && "absolute -right-0.5 -top-0.5 px-1 text-[0.6rem] leading-4",
              )}
            >
              {item.badge}
              <span className="sr-only"> new</span>
            </span>
          ) : null}
        </Link>
      </WithTooltip>
    </li>
  );
}
