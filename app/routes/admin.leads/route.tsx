import { defer, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { AlertBacklogCard } from "~/features/alerts/alert-backlog";
import { alertBacklog } from "~/features/alerts/alerts.server";
import { alertsByVenture } from "~/features/alerts/preferences.server";
import { handoffCounts } from "~/features/handoff/handoff.server";
import { Await, useLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { Download } from "~/components/ui/icons.generated";
import { Card } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { recentAudit } from "~/features/admin/audit.server";
import { auditInWords } from "~/features/admin/audit-words.server";
import { requireAdmin } from "~/features/auth/guard.server";
import type { FilterErrors } from "~/features/leads/lead-filter";
import { filterParams, parseLeadFilters } from "~/features/leads/lead-filters.server";
import { decodeCursor, encodeCursor, listLeads } from "~/features/leads/lead-list.server";
import { countByStatus, getGrowth, getLeadStats } from "~/features/leads/lead-stats.server";
import { mailEventCounts } from "~/features/mail/events.server";
import { failedDeliveries, outboxQueue } from "~/features/mail/outbox.server";
import { burstNow } from "~/features/forms/rate-limit.server";
import { formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { AudienceCards } from "./audience";
import { AuditLog } from "~/features/admin/audit-log";
import { FilterForm } from "./filter-form";
import { GrowthTimeline } from "./growth";
import { LoadError, SkeletonRows } from "./loading";
import { Burst, MailDelivery, MailQueue, UndeliveredMail } from "./mail-health";
import { SourceShares, StatCard } from "./stats";
import { StatusCounts, SubscriberPages, SubscriberTable } from "./subscribers";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";

const page = pages.leads;
const RECENT_PAGE_SIZE = 25;
const CSV_PATH = "/admin/leads.csv";
const FAILED_MAIL_SHOWN = 10;
const AUDIT_SHOWN = 10;
/** Every investor-alerts lead, counted by status for the headline. */
const ALERTS_TOTALS = { status: "all", topic: "alerts" } as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const params = new URL(request.url).searchParams;
  const cursor = decodeCursor(params.get("cursor"));
  const parsed = parseLeadFilters(params);
  // Bad filters: the form shows why, the list stays empty (a 400, nothing guessed).
  const filters = parsed.ok ? parsed.filters : null;
  const query = filters ? filterParams(filters).toString() : "";
  const now = Date.now();
  const db = getDb(env);
  const totals = countByStatus(db);
  // The list's per-status counts ignore the status filter: without a search, source or dates they
  // are the totals beside "Total Subscribers", read once.
  const narrowed = filters && (filters.q || filters.source || filters.from || filters.to || filters.topic === "alerts");
  const listCounts = narrowed ? countByStatus(db, filters) : totals;
  // Not awaited: the page streams, with the 5-row skeletons (docs/product.md) until each part arrives.
  return defer(
    {
      paged: cursor !== null && cursor !== "invalid",
      // Confirmed subscribers, with the pending and unsubscribed beside them.
      // The other topic beside them: an investor-alerts subscriber is a subscriber too.
      stats: Promise.all([getLeadStats(db, now), totals, countByStatus(db, ALERTS_TOTALS)]).then(([s, c, a]) => ({
        ...s,
        pending: c.pending,
        unsubscribed: c.unsubscribed,
        alerts: { confirmed: a.confirmed, pending: a.pending },
      })),
      growth: getGrowth(db, now),
      failedMail: failedDeliveries(db, FAILED_MAIL_SHOWN),
      mailQueue: outboxQueue(db),
      burst: burstNow(env, now),
      alertsOut: alertBacklog(db),
      audience: Promise.all([handoffCounts(db), alertsByVenture(db)]).then(([handoff, alerts]) => ({
        handoff,
        alerts,
      })),
      mailEvents: mailEventCounts(db, now),
      now,
      form: {
        values: Object.fromEntries(
          ["q", "source", "status", "from", "to", "topic"].map((k) => [k, params.get(k) ?? ""]),
        ),
        errors: parsed.ok ? {} : parsed.errors,
      } as {
        values: Record<string, string>;
        errors: FilterErrors;
      },
      query,
      filtered: query !== "",
      recent: filters
        ? Promise.all([
            listLeads(db, { limit: RECENT_PAGE_SIZE, cursor: cursor === "invalid" ? null : cursor, filters }),
            listCounts,
          ]).then(([p, counts]) => ({
            leads: p.leads,
            next: p.next ? encodeCursor(p.next) : null,
            counts,
            status: filters.status,
          }))
        : Promise.resolve(null),
      audit: recentAudit(db, AUDIT_SHOWN).then((entries) => auditInWords(db, entries)),
    },
    // Personal data: never stored by a cache.
    { status: parsed.ok ? 200 : 400, headers: NO_STORE },
  );
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function LeadsDashboard() {
  const {
    stats,
    growth,
    recent,
    paged,
    failedMail,
    mailQueue,
    burst,
    alertsOut,
    audience,
    mailEvents,
    now,
    form,
    query,
    filtered,
    audit,
  } = useLoaderData<typeof loader>();
  const withQuery = (extra: Record<string, string> = {}) => {
    const params = new URLSearchParams(query);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    const text = params.toString();
    return text ? `?${text}` : "";
  };

  return (
    <div className="mx-auto max-w-6xl px-4 pb-16 pt-10">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
          <p className="mt-2 text-muted-foreground">{page.description}</p>
        </div>
        <Suspense fallback={<ExportButton enabled={false} href={CSV_PATH} />}>
          <Await resolve={stats} errorElement={<ExportButton enabled={false} href={CSV_PATH} />}>
            {(s) => <ExportButton enabled={filtered || s.total > 0} href={`${CSV_PATH}${withQuery()}`} />}
          </Await>
        </Suspense>
      </header>

      <section aria-label="Statistics" className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Suspense
          fallback={[0, 1, 2].map((i) => (
            <StatCard key={i} label="" value={null} />
          ))}
        >
          <Await resolve={stats} errorElement={<LoadError />}>
            {(s) => (
              <>
                <StatCard
                  label="Total Subscribers"
                  value={formatInteger(s.total)}
                  detail={
                    <>
                      Newsletter: <span data-testid="stat-pending">{formatInteger(s.pending)}</span> pending
                      confirmation · <span data-testid="stat-unsubscribed">{formatInteger(s.unsubscribed)}</span>{" "}
                      unsubscribed
                      <br />
                      Investor alerts:{" "}
                      <span className="font-medium text-foreground" data-testid="stat-alerts-subscribers">
                        {formatInteger(s.alerts.confirmed)}
                      </span>{" "}
                      confirmed · <span data-testid="stat-alerts-pending">{formatInteger(s.alerts.pending)}</span>{" "}
                      pending
                    </>
                  }
                />
                <StatCard label="This Week" value={`+${formatInteger(s.thisWeek)}`} />
                <StatCard label="Top Source" value={s.sources[0]?.source ?? "N/A"} />
              </>
            )}
          </Await>
        </Suspense>
      </section>

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card as="section" heading="Leads by Source">
          <Suspense fallback={<SkeletonRows />}>
            <Await resolve={stats} errorElement={<LoadError />}>
              {(s) => <SourceShares sources={s.sources} total={s.total} />}
            </Await>
          </Suspense>
        </Card>

        <Card as="section" heading="Growth Timeline">
          <Suspense fallback={<SkeletonRows />}>
            <Await resolve={growth} errorElement={<LoadError />}>
              {(g) => <GrowthTimeline daily={g.daily} recent={g.recent} />}
            </Await>
          </Suspense>
        </Card>
      </div>

      <Suspense fallback={null}>
        <Await resolve={audience} errorElement={<LoadError />}>
          {(a) => <AudienceCards handoff={a.handoff} alerts={a.alerts} />}
        </Await>
      </Suspense>

      <Suspense fallback={null}>
        <Await resolve={burst} errorElement={<LoadError />}>
          {(b) => <Burst over={b} />}
        </Await>
      </Suspense>

      <Suspense fallback={null}>
        <Await resolve={mailQueue} errorElement={<LoadError />}>
          {(q) => <MailQueue queue={q} now={now} />}
        </Await>
      </Suspense>

      <Suspense fallback={null}>
        <Await resolve={alertsOut} errorElement={<LoadError />}>
          {(b) => <AlertBacklogCard backlog={b} />}
        </Await>
      </Suspense>

      <Suspense fallback={null}>
        <Await resolve={mailEvents} errorElement={<LoadError />}>
          {(counts) => <MailDelivery counts={counts} />}
        </Await>
      </Suspense>

      <Suspense fallback={null}>
        <Await resolve={failedMail} errorElement={<LoadError />}>
          {(failed) => <UndeliveredMail failed={failed} />}
        </Await>
      </Suspense>

      <Card as="section" heading="Recent Subscribers" className="mt-6">
        <FilterForm values={form.values} errors={form.errors} filtered={filtered} />
        <Suspense fallback={<SkeletonRows />}>
          <Await resolve={recent} errorElement={<LoadError />}>
            {(r) =>
              r === null ? null : (
                <>
                  <StatusCounts counts={r.counts} status={r.status} />
                  {r.leads.length === 0 ? (
                    <p className="text-sm text-muted-foreground">
                      {filtered ? "No leads match these filters" : "No subscribers yet"}
                    </p>
                  ) : (
                    <>
                      <SubscriberTable leads={r.leads} />
                      <SubscriberPages
                        newest={paged ? withQuery() || "." : null}
                        older={r.next ? withQuery({ cursor: r.next }) : null}
                      />
                    </>
                  )}
                </>
              )
            }
          </Await>
        </Suspense>
      </Card>

      <Card as="section" heading="Audit log" className="mt-6">
        <Suspense fallback={null}>
          <Await resolve={audit} errorElement={<LoadError />}>
            {(entries) => <AuditLog entries={entries} />}
          </Await>
        </Suspense>
      </Card>
    </div>
  );
}

function ExportButton({ enabled, href }: { enabled: boolean; href: string }) {
  const content = (
    <>
      <Download aria-hidden="true" className="size-4" />
      Export CSV
    </>
  );
  // A plain link: the browser downloads the streamed file itself, with or without JavaScript.
  return enabled ? (
    <a href={href} download className="btn btn-primary">
      {content}
    </a>
  ) : (
    <button type="button" className="btn btn-primary" disabled title="Nothing to export yet">
      {content}
    </button>
  );
}
