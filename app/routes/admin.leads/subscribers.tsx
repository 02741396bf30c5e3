import { Link } from "@remix-run/react";
import { LEAD_STATUSES, type LeadStatus } from "~/db/enums";
import type { ReactNode } from "react";
import type { ListedKey, PublicLead } from "~/features/leads/lead-list.server";
import { formatInteger, formatIsoDate } from "~/utils/format";

const fullName = (lead: PublicLead) => [lead.firstName, lead.lastName].filter(Boolean).join(" ") || "—";
const HEAD = "py-2 pr-4 font-medium";
const CELL = "py-2 pr-4";
const FIRST = "sticky left-0 bg-card";

type Column = { heading: string; className: string; cell: (lead: PublicLead) => ReactNode };

/**
 * Every listed field (LISTED) decided for the table, in its order: its column, or why it has none.
 * A field added to LISTED fails `npm run typecheck` here until the table decides it.
 */
const COLUMNS = {
  // The first column stays in view while the table scrolls sideways (FIRST).
  email: { heading: "Email", className: `${FIRST} max-w-48 truncate sm:max-w-64 ${CELL}`, cell: (lead) => lead.email },
  firstName: { heading: "Name", className: CELL, cell: fullName },
  lastName: "in Name, after the first name",
  source: { heading: "Source", className: CELL, cell: (lead) => lead.source },
  subscribedAt: {
    heading: "Subscribed",
    className: `whitespace-nowrap ${CELL}`,
    cell: (lead) => <time dateTime={lead.subscribedAt}>{formatIsoDate(lead.subscribedAt, "medium")}</time>,
  },
} satisfies Record<ListedKey, Column | string>;

const TABLE_COLUMNS: readonly Column[] = Object.values(COLUMNS).filter((c) => typeof c !== "string");

/** The per-status counts of the filtered list; the filter's own status in bold. */
export function StatusCounts({ counts, status }: { counts: Record<LeadStatus, number>; status: string }) {
  return (
    <p className="mb-3 text-sm text-muted-foreground" data-testid="filter-counts">
      {LEAD_STATUSES.map((s, i) => (
        <span key={s}>
          {i ? " · " : ""}
          <span className={s === status ? "font-semibold text-foreground" : undefined}>
            {formatInteger(counts[s])} {s}
          </span>
        </span>
      ))}
    </p>
  );
}

/** One page of subscribers, newest first, each with its "Manage" link. */
export function SubscriberTable({ leads }: { leads: readonly PublicLead[] }) {
  return (
    // Wider than a phone: it scrolls in its own box (data-scroll-x), the address column kept in view;
    // relative, so the header's sr-only text is clipped with it.
    <div className="relative overflow-x-auto" data-scroll-x>
      <table className="w-full text-left text-sm">
        <thead className="text-muted-foreground">
          <tr className="border-b border-border">
            {TABLE_COLUMNS.map((c, i) => (
              <th key={c.heading} scope="col" className={i === 0 ? `${FIRST} ${HEAD}` : HEAD}>
                {c.heading}
              </th>
            ))}
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id} className="border-b border-border last:border-0" data-testid="subscriber-row">
              {TABLE_COLUMNS.map((c) => (
                <td key={c.heading} className={c.className}>
                  {c.cell(lead)}
                </td>
              ))}
              <td className="whitespace-nowrap py-2 text-right">
                <Link
                  to={`/admin/leads/${lead.id}`}
                  className="underline underline-offset-4"
                  aria-label={`Manage ${lead.email}`}
                >
                  Manage
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Newer and older pages; `newest` and `older` are the links' targets, null when there is none. */
export function SubscriberPages({ newest, older }: { newest: string | null; older: string | null }) {
  return (
    <nav aria-label="Subscriber pages" className="mt-4 flex justify-between text-sm">
      {newest !== null ? (
        <Link to={newest} className="underline underline-offset-4">
          Newest subscribers
        </Link>
      ) : (
        <span />
      )}
      {older !== null ? (
        <Link to={older} className="underline underline-offset-4">
          Older subscribers
        </Link>
      ) : null}
    </nav>
  );
}
