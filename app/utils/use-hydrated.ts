import { useSyncExternalStore } from "react";

const noop = () => () => {};

/**
 * False on the server and during hydration, true afterwards: lets a component render a
 * no-JavaScript fallback (a plain link, a <details>) that becomes the interactive version once
 * React is running, without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
