import { createElement, forwardRef, type SVGProps } from "react";

/**
 * Renders lucide's icons (icons.generated.ts holds each drawing, written by scripts/icons.mjs from
 * lucide-react's own files). Lucide's markup, but for its drawing attributes (size, fill, stroke and
 * its width, caps and joins) and `xmlns` (an inline <svg> needs none): the `.lucide` rule in
 * tailwind.css sets them once, instead of eight attributes on each of the 30–48 icons of a page
 * (issue 36: 5–7 kB less HTML to send and parse, fewer attributes for React to write). The drawing
 * is the svg's inner markup, written once per icon. We pass only
 * className and aria props; sizes and colours come from CSS.
 */
type IconNode = [tag: string, attrs: Record<string, string>][];

const SVG_ATTRIBUTES = { viewBox: "0 0 24 24" } as const;

// No children: the drawing is the svg's whole content.
type IconProps = Omit<SVGProps<SVGSVGElement>, "children" | "dangerouslySetInnerHTML">;

/** Lucide's rule: an icon without an accessible name or role is hidden from assistive technology. */
function hasA11yProp(props: Record<string, unknown>): boolean {
  for (const prop in props) {
    if ((prop.startsWith("aria-") || prop === "role" || prop === "title") && props[prop] != null) return true;
  }
  return false;
}

/** The drawing as markup, as React would write its elements (lucide's values are plain text). */
function drawingMarkup(node: IconNode): string {
  const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return node
    .map(([tag, attrs]) => {
      const list = Object.entries(attrs).map(([name, value]) => ` ${name}="${escape(value)}"`);
      return `<${tag}${list.join("")}></${tag}>`;
    })
    .join("");
}

/** An icon as data (a loader may send one: the admin pages' sidebar entries). */
export interface IconData {
  name: string;
  node: IconNode;
  aliases: string[];
}

export function lucideIcon(name: string, node: IconNode, aliases: string[] = []) {
  const baseClass = ["lucide", `lucide-${name}`, ...aliases.map((a) => `lucide-${a}`)].join(" ");
  // Built at the icon's first render, not at import: the worker's start-up builds none of them.
  let drawing: { __html: string } | null = null;
  const Icon = forwardRef<SVGSVGElement, IconProps>(function Icon({ className, ...rest }, ref) {
    return createElement("svg", {
      ref,
      ...SVG_ATTRIBUTES,
      className: className ? `${baseClass} ${className}` : baseClass,
      ...(hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
      ...rest,
      // The drawing as the svg's inner markup: React renders, hydrates and commits the <svg>
      // alone, not its 2–6 parts (a quarter of a page's elements; issue 36).
      dangerouslySetInnerHTML: (drawing ??= { __html: drawingMarkup(node) }),
    });
  });
  Icon.displayName = name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
  return Object.assign(Icon, { data: { name, node, aliases } satisfies IconData });
}

const fromData = new Map<string, Icon>();

/** The component of an icon sent as data, made once per name. */
export function iconFromData(data: IconData): Icon {
  let icon = fromData.get(data.name);
  if (!icon) fromData.set(data.name, (icon = lucideIcon(data.name, data.node, data.aliases)));
  return icon;
}

/** An icon component, as the app passes them around (nav items, the catalogue). */
export type Icon = ReturnType<typeof lucideIcon>;
