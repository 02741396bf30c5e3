import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Await, Link, useLoaderData, useLocation } from "@remix-run/react";
import { clsx } from "clsx";
import { Download } from "~/components/ui/icons.generated";
import { Suspense, type ReactNode } from "react";
import { GrowthChart } from "~/features/leads/growth-chart";
import { SHOWS_LEADS } from "~/features/leads/newsletter";
import { NotFound } from "~/components/not-found";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { getAdminOrNull } from "~/features/auth/guard.server";
import { formatInteger, formatIsoDate } from "~/utils/format";
import { decodeCursor, encodeCursor, listLeads, type PublicLead } from "~/features/leads/lead-list.server";
import { countByStatus, getGrowth, getLeadStats } from "~/features/leads/lead-stats.server";
import { DEFAULT_FILTER, type FilterErrors } from "~/features/leads/lead-filter";
import { filterParams, parseLeadFilters } from "~/features/leads/lead-filters.server";
import { recentAudit } from "~/features/admin/audit.server";
import { LEAD_STATUSES } from "~/db/enums";
import { PlainInput } from "~/components/ui/input";
import { pageMeta } from "~/utils/meta";
import { failedDeliveries, outboxQueue } from "~/features/mail/outbox.server";

const page = pages.leads;
const RECENT_PAGE_SIZE = 25;
const SKELETON_ROWS = 5;
const CSV_PATH = "/admin/leads.csv";
const FAILED_MAIL_SHOWN = 10;
const AUDIT_SHOWN = 10;

// Anonymous visitors get the not-found page, as if the dashboard did not exist; only admins see
// it (docs/decisions/004-sign-in.md).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await getAdminOrNull(request, env);
  if (!admin) return data({ notFound: true as const }, { status: 404 });
  const params = new URL(request.url).searchParams;
  const cursor = decodeCursor(params.get("cursor"));
  const parsed = parseLeadFilters(params);
  // Bad filters: the form shows why, the list stays empty (a 400, nothing guessed).
  const filters = parsed.ok ? parsed.filters : null;
  const query = filters ? filterParams(filters).toString() : "";
  const now = Date.now();
  const totals = countByStatus(env.DB);
  // The list's per-status counts ignore the status filter: without a search, source or dates they
  // are the totals beside "Total Subscribers", read once.
  const narrowed = filters && (filters.q || filters.source || filters.from || filters.to);
  const listCounts = narrowed ? countByStatus(env.DB, filters) : totals;
  // Not awaited: the page streams, with the 5-row skeletons (docs/product.md) until each part arrives.
  return data(
    {
      notFound: false as const,
      paged: cursor !== null && cursor !== "invalid",
      // Confirmed subscribers, with the pending and unsubscribed beside them.
      stats: Promise.all([getLeadStats(env.DB, now), totals]).then(([s, c]) => ({
        ...s,
        pending: c.pending,
        unsubscribed: c.unsubscribed,
      })),
      growth: getGrowth(env.DB, now),
      failedMail: failedDeliveries(env.DB, FAILED_MAIL_SHOWN),
      mailQueue: outboxQueue(env.DB),
      now,
      form: { values: Object.fromEntries(["q", "source", "status", "from", "to"].map((k) => [k, params.get(k) ?? ""])), errors: parsed.ok ? {} : parsed.errors } as {
        values: Record<string, string>;
        errors: FilterErrors;
      },
      query,
      filtered: query !== "",
      recent: filters
        ? Promise.all([
            listLeads(env.DB, { limit: RECENT_PAGE_SIZE, cursor: cursor === "invalid" ? null : cursor, filters }),
            listCounts,
          ]).then(([p, counts]) => ({ leads: p.leads, next: p.next ? encodeCursor(p.next) : null, counts, status: filters.status }))
        : Promise.resolve(null),
      audit: recentAudit(env.DB, AUDIT_SHOWN),
    },
    { status: parsed.ok ? 200 : 400, headers: { "Cache-Control": "private, no-store" } },
  );
}

// Personal data: never stored by a cache.
/** A signup elsewhere on this page (the footer) reloads the figures. */
export const handle = SHOWS_LEADS;

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data?.notFound === false
    ? [...pageMeta({ page, matches }), { name: "robots", content: "noindex" }]
    : [{ title: `Page Not Found | ${SITE.name}` }, { name: "robots", content: "noindex" }];

/** A wait as people say it: "40 s", "12 min", "3 h". */
function waitedFor(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

const fullName = (lead: PublicLead) => [lead.firstName, lead.lastName].filter(Boolean).join(" ") || "—";

export default function LeadsDashboard() {
  const loaderData = useLoaderData<typeof loader>();
  const location = useLocation();
  if (loaderData.notFound) return <NotFound path={location.pathname} />;
  const { stats, growth, recent, paged, failedMail, mailQueue, now, form, query, filtered, audit } = loaderData;
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

      <section aria-label="Statistics" className="mt-8 grid gap-4 sm:grid-cols-3">
        <Suspense fallback={[0, 1, 2].map((i) => <StatCard key={i} label="" value={null} />)}>
          <Await resolve={stats} errorElement={<LoadError />}>
            {(s) => (
              <>
                <StatCard
                  label="Total Subscribers"
                  value={formatInteger(s.total)}
                  detail={
                    <>
                      <span data-testid="stat-pending">{formatInteger(s.pending)}</span> pending confirmation ·{" "}
                      <span data-testid="stat-unsubscribed">{formatInteger(s.unsubscribed)}</span> unsubscribed
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

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card title="Leads by Source">
          <Suspense fallback={<SkeletonRows />}>
            <Await resolve={stats} errorElement={<LoadError />}>
              {(s) =>
                s.sources.length === 0 ? (
                  <p className="text-sm text-muted-foreground">No subscribers yet</p>
                ) : (
                  <ul className="grid gap-4">
                    {s.sources.map(({ source, count }) => {
                      const percent = (count / s.total) * 100;
                      return (
                        <li key={source} data-testid="source-row">
                          <div className="flex items-baseline justify-between gap-2 text-sm">
                            <span className="font-medium">{source}</span>
                            <span className="text-muted-foreground">
                              {`${percent.toFixed(1)}% · ${formatInteger(count)}`}
                            </span>
                          </div>
                          <div
                            role="progressbar"
                            aria-label={`${source}: share of subscribers`}
                            aria-valuemin={0}
                            aria-valuemax={100}
                            aria-valuenow={Number(percent.toFixed(1))}
                            className="mt-1.5 h-2 overflow-hidden rounded-full bg-muted"
                          >
                            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
                          </div>
                        </li>
                      );
                    })}
                  </ul>
                )
              }
            </Await>
          </Suspense>
        </Card>

        <Card title="Growth Timeline">
          <Suspense fallback={<SkeletonRows />}>
            <Await resolve={growth} errorElement={<LoadError />}>
              {(g) => (
                <>
                  <GrowthChart daily={g.daily} />
                  {g.recent.length === 0 ? (
                    <p className="text-sm text-muted-foreground">No signups in the last 30 days</p>
                  ) : (
                    <ol className="grid gap-2" aria-label="Latest signups of the last 30 days">
                      {g.recent.map((lead) => (
                        <li key={lead.id} className="flex items-center justify-between gap-3 text-sm" data-testid="growth-row">
                          <span className="min-w-0 truncate">
                            <span className="font-medium">{lead.email}</span>{" "}
                            <span className="text-muted-foreground">via {lead.source}</span>
                          </span>
                          <time dateTime={lead.subscribedAt} className="shrink-0 text-muted-foreground">
                            {formatIsoDate(lead.subscribedAt, "medium")}
                          </time>
                        </li>
                      ))}
                    </ol>
                  )}
                </>
              )}
            </Await>
          </Suspense>
        </Card>
      </div>

      {/* The outbox's queue (docs/decisions/015-mail-delivery.md): shown only while mail waits, so a stuck queue is seen. */}
      <Suspense fallback={null}>
        <Await resolve={mailQueue} errorElement={<LoadError />}>
          {(q) =>
            q.waiting === 0 || q.oldestQueuedAt === null ? null : (
              <Card title="E-mails waiting to be sent" className="mt-6">
                <p className="text-sm" data-testid="mail-queue">
                  <span className="font-medium" data-testid="mail-queue-depth">{q.waiting}</span> waiting; the oldest was queued{" "}
                  <span className="font-medium" data-testid="mail-queue-oldest">{waitedFor(now - q.oldestQueuedAt)}</span> ago (
                  {formatIsoDate(new Date(q.oldestQueuedAt).toISOString(), "medium")}). Mail normally leaves within seconds; a
                  growing wait means the SMTP server or the mail queue is failing (the retries and their errors are in the log).
                </p>
              </Card>
            )
          }
        </Await>
      </Suspense>

      {/* E-mails given up after a day of retries (docs/decisions/015-mail-delivery.md); shown only when there are some. */}
      <Suspense fallback={null}>
        <Await resolve={failedMail} errorElement={<LoadError />}>
          {(failed) =>
            failed.length === 0 ? null : (
              <Card title="Undelivered e-mails" className="mt-6">
                <p className="mb-3 text-sm text-muted-foreground">
                  These could not be delivered within a day of retries. Check the SMTP settings and the provider's log.
                </p>
                <ul className="grid gap-2 text-sm" aria-label="Undelivered e-mails">
                  {failed.map((m) => (
                    <li key={m.id} className="flex flex-wrap justify-between gap-x-4" data-testid="failed-mail">
                      <span className="min-w-0 truncate">
                        <span className="font-medium">{m.recipient}</span> <span className="text-muted-foreground">· {m.subject}</span>
                      </span>
                      <span className="text-muted-foreground">
                        {formatIsoDate(new Date(m.createdAt).toISOString(), "medium")} · {m.attempts} attempts{m.lastError ? ` · ${m.lastError}` : ""}
                      </span>
                    </li>
                  ))}
                </ul>
              </Card>
            )
          }
        </Await>
      </Suspense>

      <Card title="Recent Subscribers" className="mt-6">
        <FilterForm values={form.values} errors={form.errors} filtered={filtered} />
        <Suspense fallback={<SkeletonRows />}>
          <Await resolve={recent} errorElement={<LoadError />}>
            {(r) =>
              r === null ? null : (
                <>
                  <p className="mb-3 text-sm text-muted-foreground" data-testid="filter-counts">
                    {LEAD_STATUSES.map((status, i) => (
                      <span key={status}>
                        {i ? " · " : ""}
                        <span className={status === r.status ? "font-semibold text-foreground" : undefined}>
                          {formatInteger(r.counts[status])} {status}
                        </span>
                      </span>
                    ))}
                  </p>
                  {r.leads.length === 0 ? (
                    <p className="text-sm text-muted-foreground">{filtered ? "No leads match these filters" : "No subscribers yet"}</p>
                  ) : (
                    <>
                      <div className="overflow-x-auto">
                        <table className="w-full text-left text-sm">
                          <thead className="text-muted-foreground">
                            <tr className="border-b border-border">
                              <th scope="col" className="py-2 pr-4 font-medium">Email</th>
                              <th scope="col" className="py-2 pr-4 font-medium">Name</th>
                              <th scope="col" className="py-2 pr-4 font-medium">Source</th>
                              <th scope="col" className="py-2 pr-4 font-medium">Subscribed</th>
                              <th scope="col" className="py-2 font-medium"><span className="sr-only">Actions</span></th>
                            </tr>
                          </thead>
                          <tbody>
                            {r.leads.map((lead) => (
                              <tr key={lead.id} className="border-b border-border last:border-0" data-testid="subscriber-row">
                                <td className="max-w-64 truncate py-2 pr-4">{lead.email}</td>
                                <td className="py-2 pr-4">{fullName(lead)}</td>
                                <td className="py-2 pr-4">{lead.source}</td>
                                <td className="whitespace-nowrap py-2 pr-4">
                                  <time dateTime={lead.subscribedAt}>{formatIsoDate(lead.subscribedAt, "medium")}</time>
                                </td>
                                <td className="whitespace-nowrap py-2 text-right">
                                  <Link to={`/admin/leads/${lead.id}`} className="underline underline-offset-4" aria-label={`Manage ${lead.email}`}>
                                    Manage
                                  </Link>
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </div>
                      <nav aria-label="Subscriber pages" className="mt-4 flex justify-between text-sm">
                        {paged ? <Link to={withQuery() || "."} className="underline underline-offset-4">Newest subscribers</Link> : <span />}
                        {r.next ? (
                          <Link to={withQuery({ cursor: r.next })} className="underline underline-offset-4">
                            Older subscribers
                          </Link>
                        ) : null}
                      </nav>
                    </>
                  )}
                </>
              )
            }
          </Await>
        </Suspense>
      </Card>

      <Card title="Audit log" className="mt-6">
        <Suspense fallback={null}>
          <Await resolve={audit} errorElement={<LoadError />}>
            {(entries) =>
              entries.length === 0 ? (
                <p className="text-sm text-muted-foreground">No admin actions yet</p>
              ) : (
                <ol className="grid gap-2 text-sm" aria-label="Latest admin actions">
                  {entries.map((e) => (
                    <li key={e.id} className="flex flex-wrap justify-between gap-x-4" data-testid="audit-entry">
                      <span>
                        <span className="font-medium">{e.action}</span> {e.target}
                        {e.detail ? <span className="text-muted-foreground"> · {e.detail}</span> : null}
                      </span>
                      <span className="text-muted-foreground">
                        {e.actor} · <time dateTime={new Date(e.at).toISOString()}>{formatIsoDate(new Date(e.at).toISOString(), "medium")}</time>
                      </span>
                    </li>
                  ))}
                </ol>
              )
            }
          </Await>
        </Suspense>
      </Card>
    </div>
  );
}

/** A GET form: the filters live in the URL, so they work without JavaScript and can be shared. */
function FilterForm({ values, errors, filtered }: { values: Record<string, string>; errors: FilterErrors; filtered: boolean }) {
  const field = "grid gap-1 text-sm";
  const error = (name: keyof FilterErrors) =>
    errors[name] ? (
      <span className="text-xs text-destructive" role="alert">
        {errors[name]}
      </span>
    ) : null;
  return (
    <form method="get" className="mb-4 grid gap-3 sm:grid-cols-6" aria-label="Filter leads">
      <label className={`${field} sm:col-span-2`}>
        <span>Search</span>
        <PlainInput name="q" type="search" defaultValue={values.q} placeholder="E-mail or name starts with…" maxLength={254} />
        {error("q")}
      </label>
      <label className={field}>
        <span>Source</span>
        <PlainInput name="source" defaultValue={values.source} placeholder="any" maxLength={40} />
        {error("source")}
      </label>
      <label className={field}>
        <span>Status</span>
        <select name="status" defaultValue={values.status || DEFAULT_FILTER} className="block h-10 w-full rounded-md border border-border bg-background px-3 text-sm text-foreground">
          {[...LEAD_STATUSES, "all"].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        {error("status")}
      </label>
      <label className={field}>
        <span>From</span>
        <PlainInput name="from" type="date" defaultValue={values.from} />
        {error("from")}
      </label>
      <label className={field}>
        <span>To</span>
        <PlainInput name="to" type="date" defaultValue={values.to} />
        {error("to")}
      </label>
      <div className="flex gap-3 sm:col-span-6">
        <button type="submit" className="btn btn-primary">
          Apply filters
        </button>
        {filtered ? (
          <Link to="/admin/leads" className="btn btn-outline">
            Clear
          </Link>
        ) : null}
      </div>
    </form>
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

function Card({ title, className, children }: { title: string; className?: string; children: ReactNode }) {
  return (
    <section className={clsx("rounded-xl border border-border bg-card p-6 text-card-foreground", className)}>
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function StatCard({ label, value, detail }: { label: string; value: string | null; detail?: ReactNode }) {
  return (
    <div className="rounded-xl border border-border bg-card p-6 text-card-foreground">
      {value === null ? (
        <>
          <div className="h-4 w-24 animate-pulse rounded bg-muted" />
          <div className="mt-3 h-8 w-16 animate-pulse rounded bg-muted" />
        </>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 text-3xl font-bold" data-testid={`stat-${label.toLowerCase().replaceAll(" ", "-")}`}>
            {value}
          </p>
          {detail ? <p className="mt-1 text-xs text-muted-foreground">{detail}</p> : null}
        </>
      )}
    </div>
  );
}

function SkeletonRows() {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading">
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <div key={i} className="h-6 animate-pulse rounded bg-muted" data-testid="skeleton-row" />
      ))}
    </div>
  );
}

function LoadError() {
  return <p className="text-sm text-destructive">Could not load this part. Please reload the page.</p>;
}
