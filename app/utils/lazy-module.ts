import { useEffect, useSyncExternalStore } from "react";

/**
 * Code that only the browser renders, fetched when first needed (a dialog, the toasts, the
 * shortcuts, the tooltips) and rendered once it has arrived: `null` until then, like a Suspense
 * fallback of nothing, but without a Suspense boundary.
 *
 * Why not React.lazy: in React 18 a transition that reaches a server-rendered boundary still
 * waiting to hydrate (the footer's signup form, the blog's posts) leaves a hydration error behind
 * when React drops that render, and the next Suspense boundary to mount reports it as #421, though
 * nothing was client-rendered. Remix's route discovery is such a transition, right after every
 * page load. Boundaries that mount later would turn it into a console error on a slow phone;
 * this hook mounts none (docs/decisions/056-client-only-code.md).
 */
export function lazyModule<M>(importer: () => Promise<M>) {
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  const listeners = new Set<() => void>();

  /** Starts the download (once); a failed one is tried again at the next call. */
  function load(): Promise<M> {
    loading ??= importer().then(
      (module) => {
        loaded = module;
        for (const listener of listeners) listener();
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  }

  function subscribe(onChange: () => void) {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  }

  /** The module once `enabled` has asked for it and it has arrived; null before, and on the server. */
  function useModule(enabled = true): M | null {
    const module = useSyncExternalStore(
      subscribe,
      () => loaded,
      () => null,
    );
    useEffect(() => {
      // An offline moment: nothing to render yet, the next enabling tries again.
      if (enabled) load().catch(() => undefined);
    }, [enabled]);
    return enabled ? module : null;
  }

  return { load, useModule };
}
