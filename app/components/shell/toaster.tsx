import { useEffect, useState } from "react";
import { cn } from "~/components/ui/cn";
import { lazyModule } from "~/utils/lazy-module";
import { subscribeToToasts, toast, type ToastMessage } from "~/utils/toast";
import { useHydrated } from "~/utils/use-hydrated";
import type { ToastEntry } from "./toast-list";

/** At most one toast at a time; a dismissed toast leaves the DOM 1,000,000 ms later. */
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY_MS = 1_000_000;

// Radix Toast loads once the page is idle (or at the first toast), off the landing's critical path.
const toastList = lazyModule(() => import("./toast-list"));

function whenIdle(fn: () => void): () => void {
  if ("requestIdleCallback" in window) {
    const id = window.requestIdleCallback(fn, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 200);
  return () => clearTimeout(id);
}

/**
 * Renders the toasts of app/utils/toast.ts and the server flash (a toast carried across a
 * redirect). Before hydration, and with JavaScript off, the flash is a plain status message.
 */
export function Toaster({ flash }: { flash: ToastMessage | null | undefined }) {
  const hydrated = useHydrated();
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const [mounted, setMounted] = useState(false);

  useEffect(
    () => subscribeToToasts((t) => setToasts((list) => [{ ...t, open: true }, ...list].slice(0, TOAST_LIMIT))),
    [],
  );
  // Runs after the subscription above (effects run in order).
  useEffect(() => {
    if (flash) toast(flash);
  }, [flash]);
  // Mounted on idle so F8 finds the notification region even before the first toast.
  useEffect(() => whenIdle(() => setMounted(true)), []);

  function dismiss(id: number) {
    setToasts((list) => list.map((t) => (t.id === id ? { ...t, open: false } : t)));
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_REMOVE_DELAY_MS);
  }

  const ToastList = toastList.useModule(mounted || toasts.length > 0)?.default;
  if (!hydrated) {
    return flash ? (
      <div
        role="status"
        data-testid="flash-status"
        className={cn(
          "fixed bottom-4 right-4 z-[100] w-[calc(100%-2rem)] max-w-[420px] rounded-lg border p-4 shadow-lg",
          flash.variant === "destructive"
            ? "border-destructive bg-destructive text-destructive-foreground"
            : "border-border bg-card text-card-foreground",
        )}
      >
        <p className="text-sm font-semibold">{flash.title}</p>
        {flash.description ? <p className="text-sm opacity-90">{flash.description}</p> : null}
      </div>
    ) : null;
  }
  return ToastList ? <ToastList toasts={toasts} onDismiss={dismiss} /> : null;
}
