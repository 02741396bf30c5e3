import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { MOBILE_BREAKPOINT, nextSidebarState, sidebarCookie, type SidebarState } from "./sidebar-state";

interface SidebarContextValue {
  /** Desktop state: icon, expanded or hidden. */
  state: SidebarState;
  setState: (state: SidebarState) => void;
  /** The off-canvas sheet under 768 px. */
  mobileOpen: boolean;
  setMobileOpen: (open: boolean) => void;
  /** The trigger and Ctrl/Cmd+B: the desktop cycle, or open/close the sheet on mobile. */
  toggle: () => void;
  /** Ctrl/Cmd+K: make the 'Quick find...' box visible and focus it. */
  focusSearch: () => void;
  /** Bumped by focusSearch; the visible 'Quick find...' box takes the focus (useSearchFocus). */
  searchRequest: number;
  searchHandled: React.MutableRefObject<number>;
  query: string;
  setQuery: (query: string) => void;
}

const SidebarContext = createContext<SidebarContextValue | null>(null);

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
export const DESKTOP_QUERY = `(min-width: ${MOBILE_BREAKPOINT}px)`;

/**
 * Under 768 px, read when needed rather than held in state: CSS decides what is painted, and a
 * context value that changed right after hydration would force React to client-render every
 * still-dehydrated Suspense boundary (the lazily hydrated footer form).
 */
function isMobileViewport(): boolean {
  return window.matchMedia(MOBILE_QUERY).matches;
}

export function SidebarProvider({ initialState, children }: { initialState: SidebarState; children: ReactNode }) {
  const [state, setStateRaw] = useState(initialState);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [searchRequest, setSearchRequest] = useState(0);
  const searchHandled = useRef(0);

  const setState = useCallback((next: SidebarState) => {
    setStateRaw(next);
    document.cookie = sidebarCookie(next);
  }, []);

  const toggle = useCallback(() => {
    if (isMobileViewport()) setMobileOpen((open) => !open);
    else setState(nextSidebarState(state));
  }, [setState, state]);

  const focusSearch = useCallback(() => {
    if (isMobileViewport()) setMobileOpen(true);
    else if (state !== "expanded") setState("expanded");
    setSearchRequest((n) => n + 1);
  }, [setState, state]);

  const value = useMemo(
    () => ({
      state,
      setState,
      mobileOpen,
      setMobileOpen,
      toggle,
      focusSearch,
      searchRequest,
      searchHandled,
      query,
      setQuery,
    }),
    [state, setState, mobileOpen, toggle, focusSearch, searchRequest, query],
  );
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}

export function useSidebar(): SidebarContextValue {
  const value = useContext(SidebarContext);
  if (!value) throw new Error("useSidebar must be used inside <SidebarProvider>");
  return value;
}

/**
 * Focuses `input` after a focusSearch() once it is on screen: at once when the desktop sidebar
 * expands, or when the mobile sheet mounts it (before Radix's focus scope looks for a target).
 */
export function useSearchFocus(input: React.RefObject<HTMLInputElement | null>) {
  const { searchRequest, searchHandled } = useSidebar();
  useEffect(() => {
    const el = input.current;
    if (!el || searchRequest <= searchHandled.current || !el.checkVisibility()) return;
    searchHandled.current = searchRequest;
    el.focus();
  });
}
