import { useEffect, useSyncExternalStore, type ReactElement, type ReactNode } from "react";
import { TOOLTIP_DELAY_MS } from "~/components/ui/tooltip-constants";

// Radix Tooltip brings a positioning engine (~14 KB gzip), so it is fetched only when some
// tooltip is enabled (the sidebar in icon mode). Triggers are wrapped only once it has arrived,
// a change of tree that happens right after the sidebar switches mode, not under the pointer.
type TooltipModule = typeof import("~/components/ui/tooltip");
let loaded: TooltipModule | null = null;
let loading: Promise<TooltipModule> | null = null;
const listeners = new Set<() => void>();

function load() {
  loading ??= import("~/components/ui/tooltip").then((m) => {
    loaded = m;
    for (const l of listeners) l();
    return m;
  });
  return loading;
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

function useTooltipModule(enabled: boolean): TooltipModule | null {
  const module = useSyncExternalStore(
    subscribe,
    () => loaded,
    () => null,
  );
  useEffect(() => {
    if (enabled) void load();
  }, [enabled]);
  return enabled ? module : null;
}

/**
 * A tooltip naming `children` (one focusable element). Tooltips open after 700 ms; the sidebar
 * passes `delayDuration={0}`. `disabled` renders the child alone.
 */
export function WithTooltip({
  label,
  side = "right",
  delayDuration = TOOLTIP_DELAY_MS,
  disabled,
  children,
}: {
  label: ReactNode;
  side?: "top" | "right" | "bottom" | "left";
  delayDuration?: number;
  disabled?: boolean;
  children: ReactElement;
}) {
  const module = useTooltipModule(!disabled);
  if (!module) return children;
  const LabelTooltip = module.default;
  return (
    <LabelTooltip label={label} side={side} delayDuration={delayDuration}>
      {children}
    </LabelTooltip>
  );
}
