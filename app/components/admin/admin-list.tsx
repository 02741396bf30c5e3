import { Link } from "@remix-run/react";
import type { Key, ReactNode } from "react";
import { Card } from "~/components/ui/card";
import { cn } from "~/components/ui/cn";
import { formatInteger } from "~/utils/format";

/** Space under a section's heading: none (a list or a line follows), a filter's, a form's. */
const HEADING_GAPS = { none: "", filter: "mb-3", form: "mb-4" } as const;

interface SectionProps {
  /** The h2's id; the section is labelled by it. */
  id: string;
  title: ReactNode;
  /** The number shown after the title, "All rooms (3)". */
  count?: number;
  /** Beside the heading, at its end: a download link, a button (given, even as null, the row is drawn). */
  aside?: ReactNode;
  headingGap?: keyof typeof HEADING_GAPS;
  /** The first section under the page's header sits closer to it. */
  first?: boolean;
  children?: ReactNode;
}

/** One section of an admin page (inside `AdminPage`): a labelled `<section>` under its h2. */
export function AdminSection({ id, title, count, aside, headingGap = "none", first, children }: SectionProps) {
  const heading = (
    <h2 id={id} className={cn(HEADING_GAPS[headingGap], "text-xl font-semibold")}>
      {title}
      {count === undefined ? null : ` (${formatInteger(count)})`}
    </h2>
  );
  return (
    <section aria-labelledby={id} className={first ? "mt-8" : "mt-10"}>
      {aside !== undefined ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

interface ListProps<T> extends Omit<SectionProps, "count" | "children"> {
  items: readonly T[];
  itemKey: (item: T) => Key;
  /** What the section says when there are no items. */
  empty: ReactNode;
  /** One item's content, inside its card. */
  children: (item: T) => ReactNode;
  /** The heading counts the items unless told not to. */
  counted?: boolean;
  /** Between the heading and the list: a line that explains it, an error. */
  intro?: ReactNode;
  /** After the list: the form that adds to it. */
  footer?: ReactNode;
  /** The card's classes (default `min-w-0`: long words wrap inside it). */
  cardClassName?: string;
  /** The card's `data-testid`, for tests that count the items. */
  cardTestId?: string;
  /** An item's `id`, an anchor that actions come back to. */
  itemId?: (item: T) => string;
  /** Room between the cards. */
  spacing?: "normal" | "wide";
}

/**
 * An admin page's list of records (rooms, events, investors, a room's documents): a section whose
 * heading counts them, a line when there are none, else one card per record.
 */
export function AdminList<T>({
  items,
  itemKey,
  empty,
  children,
  counted = true,
  intro,
  footer,
  cardClassName = "min-w-0",
  cardTestId,
  itemId,
  spacing = "normal",
  ...section
}: ListProps<T>) {
  return (
    <AdminSection {...section} count={counted ? items.length : undefined}>
      {intro}
      {items.length === 0 ? (
        <p className="mt-3 text-muted-foreground">{empty}</p>
      ) : (
        <ul className={spacing === "wide" ? "mt-4 space-y-4" : "mt-4 space-y-3"}>
          {items.map((item) => (
            <li key={itemKey(item)} id={itemId?.(item)}>
              <Card padding="sm" className={cardClassName} data-testid={cardTestId}>
                {children(item)}
              </Card>
            </li>
          ))}
        </ul>
      )}
      {footer}
    </AdminSection>
  );
}

/** A list card's record: its title, a link to its own page, over one line of its facts. */
export function RecordLink({ to, title, children }: { to: string; title: ReactNode; children: ReactNode }) {
  return (
    <>
      <Link to={to} className="wrap-anywhere font-medium text-primary underline-offset-4 hover:underline">
        {title}
      </Link>
      <p className="wrap-anywhere text-sm text-muted-foreground">{children}</p>
    </>
  );
}
