import { createElement, forwardRef, type ReactElement, type SVGProps } from "react";

/**
 * Renders lucide's icons (icons.generated.ts holds each drawing, written by scripts/icons.mjs from
 * lucide-react's own files). Same markup as lucide's; the drawing becomes React elements once per
 * icon instead of being rebuilt, attribute by attribute, on every render of every icon (about 70
 * on a page, each rendered on the server and hydrated in the browser). We pass only className and
 * aria props; sizes and colours come from CSS.
 */
type IconNode = [tag: string, attrs: Record<string, string>][];

const SVG_ATTRIBUTES = {
  xmlns: "http://www.w3.org/2000/svg",
  width: 24,
  height: 24,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

type IconProps = SVGProps<SVGSVGElement>;

/** Lucide's rule: an icon without an accessible name or role is hidden from assistive technology. */
function hasA11yProp(props: Record<string, unknown>): boolean {
  for (const prop in props) {
    if ((prop.startsWith("aria-") || prop === "role" || prop === "title") && props[prop] != null) return true;
  }
  return false;
}

export function lucideIcon(name: string, node: IconNode, aliases: string[] = []) {
  const baseClass = ["lucide", `lucide-${name}`, ...aliases.map((a) => `lucide-${a}`)].join(" ");
  // Built at the icon's first render, not at import: the worker's start-up builds none of them.
  let drawing: ReactElement[] | null = null;
  const Icon = forwardRef<SVGSVGElement, IconProps>(function Icon({ className, children, ...rest }, ref) {
    return createElement(
      "svg",
      {
        ref,
        ...SVG_ATTRIBUTES,
        className: className ? `${baseClass} ${className}` : baseClass,
        ...(children || hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      ...(drawing ??= node.map(([tag, attrs]) => createElement(tag, attrs))),
      children,
    );
  });
  Icon.displayName = name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
  return Icon;
}

/** An icon component, as the app passes them around (nav items, the catalogue). */
export type Icon = ReturnType<typeof lucideIcon>;
