import { ExternalLink } from "~/components/ui/icons.generated";
import type { AnchorHTMLAttributes, ReactNode } from "react";

/**
 * A link that opens in a new tab and says so: the external-link icon for sighted users, "(opens
 * in a new tab)" for screen readers, and `noopener noreferrer` so the other site gets no handle
 * on this window. Layout (display, gap) is the caller's: `.btn` brings its own.
 */
export function NewTabLink({
  children,
  className,
  iconClassName = "size-4",
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "target" | "rel"> & { iconClassName?: string; children: ReactNode }) {
  return (
    <a target="_blank" rel="noopener noreferrer" className={className} {...props}>
      {children}
      <ExternalLink aria-hidden="true" className={iconClassName} />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}
