/**
 * The sidebar's three states and its cookie, pure so the server, the client
 * and the unit tests share one definition.
 */
import { parseCookieHeader } from "~/utils/cookie-header";

export type SidebarState = "icon" | "expanded" | "hidden";

export const SIDEBAR_COOKIE = "sidebar_state";
/** Seven days, in seconds. */
const SIDEBAR_COOKIE_MAX_AGE = 604_800;
export const SIDEBAR_DEFAULT: SidebarState = "expanded";
/** Under this width the sidebar is an off-canvas sheet. */
export const MOBILE_BREAKPOINT = 768;

/** Every state, in the order of the cycle (the HTML cache purges a page under each). */
export const SIDEBAR_STATES: readonly SidebarState[] = ["icon", "expanded", "hidden"];

function isSidebarState(value: unknown): value is SidebarState {
  return typeof value === "string" && (SIDEBAR_STATES as readonly string[]).includes(value);
}

/** The desktop trigger's cycle: icon → expanded → hidden → icon. */
export function nextSidebarState(state: SidebarState): SidebarState {
  return NEXT_STATE[state];
}

const NEXT_STATE: Record<SidebarState, SidebarState> = { icon: "expanded", expanded: "hidden", hidden: "icon" };

/** Reads the state from a Cookie header (or document.cookie); anything unknown is the default. */
export function readSidebarCookie(cookieHeader: string | null | undefined): SidebarState {
  const raw = parseCookieHeader(cookieHeader).get(SIDEBAR_COOKIE);
  if (raw === undefined) return SIDEBAR_DEFAULT;
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return SIDEBAR_DEFAULT;
  }
  return isSidebarState(value) ? value : SIDEBAR_DEFAULT;
}

export function sidebarCookie(state: SidebarState): string {
  return `${SIDEBAR_COOKIE}=${state}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}
