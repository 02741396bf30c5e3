import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "~/components/ui/cn";

/** The paddings cards use; a prop rather than a class, since `cn` does not merge conflicting utilities. */
const PADDINGS = { none: "", sm: "p-4", md: "p-5", lg: "p-6", xl: "p-8", "2xl": "p-12" } as const;
type CardPadding = keyof typeof PADDINGS;

/**
 * The card look (shadcn/ui's Card, ours in Tailwind): for elements that are something else too,
 * a form, a link or a list item (`<Form className={cardClass("lg")}>`), like `buttonClass`. No text
 * colour of its own: --card-foreground equals --foreground in both themes, so the text inherits the
 * same colour and a card may set another (`text-muted-foreground`) without conflicting utilities.
 */
export function cardClass(padding: CardPadding = "lg", className?: string) {
  return cn("rounded-xl border border-border bg-card", PADDINGS[padding], className);
}

type Tag = "div" | "section" | "li" | "article" | "aside";

/** A bordered card; `as` picks the element, `heading` gives it its title. */
export function Card({
  as: Element = "div",
  padding = "lg",
  heading,
  className,
  children,
  ...rest
}: { as?: Tag; padding?: CardPadding; heading?: ReactNode } & HTMLAttributes<HTMLElement>) {
  return (
    <Element className={cardClass(padding, className)} {...rest}>
      {heading ? <CardTitle className="mb-4">{heading}</CardTitle> : null}
      {children}
    </Element>
  );
}

/** A card's heading: an h2, as every card on the site sits under the page's h1. */
function CardTitle({ className, children, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
  return (
    <h2 className={cn("text-lg font-semibold", className)} {...rest}>
      {children}
    </h2>
  );
}
