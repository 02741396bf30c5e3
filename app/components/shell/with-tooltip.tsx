import type { ReactElement, ReactNode } from "react";
import { TOOLTIP_DELAY_MS } from "~/components/ui/tooltip-constants";
import { lazyModule } from "~/utils/lazy-module";

// Radix Tooltip brings a positioning engine (~14 KB gzip), so it is fetched only when some
// tooltip is enabled (the sidebar in icon mode). Triggers are wrapped only once it has arrived,
// a change of tree that happens right after the sidebar switches mode, not under the pointer.
const tooltip = lazyModule(() => import("~/components/ui/tooltip"));

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
  const module = tooltip.useModule(!disabled);
  if (!module) return children;
  const LabelTooltip = module.default;
  return (
    <LabelTooltip label={label} side={side} delayDuration={delayDuration}>
      {children}
    </LabelTooltip>
  );
}
