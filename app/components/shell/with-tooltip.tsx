import { cloneElement, lazy, Suspense, useState, type FocusEvent, type PointerEvent, type ReactElement, type ReactNode } from "react";
import { TOOLTIP_DELAY_MS } from "~/components/ui/tooltip-constants";

// Radix Tooltip brings a positioning engine (~20 KB gzip): it loads the first time a pointer or
// the focus reaches a trigger, so pages that never show a tooltip never download it.
const LabelTooltip = lazy(() => import("~/components/ui/tooltip"));

type TriggerProps = {
  onPointerEnter?: (e: PointerEvent) => void;
  onFocus?: (e: FocusEvent) => void;
};

/**
 * A tooltip naming `children` (one focusable element). Tooltips open after 700 ms; inside the
 * sidebar `delayDuration={0}` (SPEC.md §9). `disabled` renders the child alone.
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
  children: ReactElement<TriggerProps>;
}) {
  const [armed, setArmed] = useState<null | "pointer" | "focus">(null);
  if (disabled) return children;
  if (!armed) {
    return cloneElement(children, {
      onPointerEnter: (e: PointerEvent) => {
        children.props.onPointerEnter?.(e);
        setArmed("pointer");
      },
      onFocus: (e: FocusEvent) => {
        children.props.onFocus?.(e);
        // Only keyboard focus shows a tooltip (as Radix does). The first pointer visit opens it
        // at once only where there is no delay; elsewhere the next pointer move does.
        if ((e.target as Element).matches(":focus-visible")) setArmed("focus");
      },
    });
  }
  return (
    <Suspense fallback={children}>
      <LabelTooltip label={label} side={side} delayDuration={delayDuration} defaultOpen={armed === "focus" || delayDuration === 0}>
        {children}
      </LabelTooltip>
    </Suspense>
  );
}
