import { useSyncExternalStore } from "react";

/**
 * Whether a media query matches, kept current. False on the server and during hydration, so the
 * first client render matches the server's HTML.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
