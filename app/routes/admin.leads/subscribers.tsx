import { Link } from "@remix-run/react";
import { LEAD_STATUSES, type LeadStatus } from "~/db/enums";
import type { PublicLead } from "~/features/leads/lead-list.server";
import { formatInteger, formatIsoDate } from "~/utils/format";

const fullName = (lead: PublicLead) => [lead.firstName, lead.lastName].filter(Boolean).join(" ") || "—";
const HEAD = "py-2 pr-4 font-medium";
const CELL = "py-2 pr-4";
const FIRST = "sticky left-0 bg-card";

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
            <th scope="col" className={`${FIRST} ${HEAD}`}>
              Email
            </th>
            <th scope="col" className={HEAD}>
              Name
            </th>
            <th scope="col" className={HEAD}>
              Source
            </th>
            <th scope="col" className={HEAD}>
              Subscribed
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id} className="border-b border-border last:border-0" data-testid="subscriber-row">
              <td className={`${FIRST} max-w-48 truncate sm:max-w-64 ${CELL}`}>{lead.email}</td>
              <td className={CELL}>{fullName(lead)}</td>
              <td className={CELL}>{lead.source}</td>
              <td className={`whitespace-nowrap ${CELL}`}>
                <time dateTime={lead.subscribedAt}>{formatIsoDate(lead.subscribedAt, "medium")}</time>
              </td>
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
