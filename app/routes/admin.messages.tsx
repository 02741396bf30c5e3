import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { CheckCircle2, CircleDot, Reply, Search } from "~/components/ui/icons.generated";
import { Button, buttonClass } from "~/components/ui/button";
import { Card, cardClass } from "~/components/ui/card";
import { Select } from "~/components/ui/select";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import {
  MAX_QUERY,
  inboxPath,
  isContactStatus,
  parseInboxQuery,
  replyHref,
  STATUS_FILTERS,
  type StatusFilter,
} from "~/features/contact/inbox";
import { inboxCounts, listInbox, setMessageStatus } from "~/features/contact/messages.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { redirectWithToast } from "~/utils/flash.server";
import { LocalTime } from "~/components/ui/local-time";
import { formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.messages;
const PAGE_SIZE = 20;
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const query = parseInboxQuery(new URL(request.url).searchParams);
  const [list, counts] = await Promise.all([listInbox(getDb(env), query, PAGE_SIZE), inboxCounts(getDb(env))]);
  return json(
    {
      query: { q: query.q, in: query.in, status: query.status },
      paged: query.cursor !== null,
      messages: list.messages,
      next: list.next ? inboxPath({ ...query, cursor: list.next }) : null,
      counts,
    },
    { headers: NO_STORE },
  );
}

/**
 * `POST /admin/messages` with `id` and `status` (open | answered): the toggle. Cross-site → 403,
 * not an admin → 404 (as the page), bad input → 400, unknown message → 404; then back to the same
 * list (its URL is this request's) with a toast, also without JavaScript.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const form = await readForm(request, { maxBytes: 1024 });
  const id = Number(form.get("id"));
  const status = form.get("status");
  if (!Number.isSafeInteger(id) || id < 1 || !isContactStatus(status)) {
    throw new Response("Bad request: expected an id and a status (open or answered).", {
      status: 400,
      headers: NO_STORE,
    });
  }
  const found = await setMessageStatus(getDb(env), id, status, admin.email);
  if (!found) throw new Response("No such message.", { status: 404, headers: NO_STORE });
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const back = `${url.pathname}${url.search}#message-${id}`;
  return redirectWithToast(
    env,
    request,
    back,
    { title: status === "answered" ? "Marked answered" : "Marked open" },
    { status: 303, headers: NO_STORE },
  );
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

const STATUS_LABELS: Record<StatusFilter, string> = { all: "All", open: "Open", answered: "Answered" };

export default function MessagesInbox() {
  const loaderData = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const { query, messages, next, paged, counts } = loaderData;
  const here = `${location.pathname}${location.search}`;
  const total = counts.open + counts.answered;
  const countOf = (s: StatusFilter) => (s === "all" ? total : counts[s]);

  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>

      {/* A GET form: the search lives in the URL, works without JavaScript and can be bookmarked. */}
      <Form
        method="get"
        action={location.pathname}
        role="search"
        aria-label="Search messages"
        className={cardClass("sm", "mt-8 flex flex-wrap items-end gap-3")}
      >
        <div className="min-w-56 flex-1">
          <label htmlFor="inbox-q" className="mb-1 block text-sm font-medium">
            Search
          </label>
          <input
            id="inbox-q"
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={MAX_QUERY}
            placeholder="E-mail or name starts with…"
            className="block h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          />
        </div>
        <div>
          <label htmlFor="inbox-in" className="mb-1 block text-sm font-medium">
            In
          </label>
          <Select id="inbox-in" name="in" defaultValue={query.in}>
            <option value="sender">Sender (e-mail or name)</option>
            <option value="subject">Subject words</option>
          </Select>
        </div>
        <div>
          <label htmlFor="inbox-status" className="mb-1 block text-sm font-medium">
            Status
          </label>
          <Select id="inbox-status" name="status" defaultValue={query.status}>
            {STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {`${STATUS_LABELS[s]} (${formatInteger(countOf(s))})`}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" variant="primary">
          <Search aria-hidden="true" className="size-4" />
          Search
        </Button>
        {query.q || query.status !== "all" ? (
          <Link to={location.pathname} className="self-center text-sm underline underline-offset-4">
            Clear
          </Link>
        ) : null}
      </Form>

      <p className="mt-6 text-sm text-muted-foreground" aria-live="polite">
        {messages.length === 0
          ? query.q || query.status !== "all"
            ? "No messages match."
            : "No messages yet."
          : `${formatInteger(counts.open)} open · ${formatInteger(counts.answered)} answered`}
      </p>

      <ol className="mt-4 grid gap-4" aria-label="Messages, newest first">
        {messages.map((m) => {
          const pending = navigation.state !== "idle" && navigation.formData?.get("id") === String(m.id);
          const nextStatus = m.status === "open" ? "answered" : "open";
          return (
            <Card
              as="li"
              padding="md"
              key={m.id}
              id={`message-${m.id}`}
              data-testid="message"
              data-status={m.status}
              className="min-w-0 scroll-mt-20 [overflow-wrap:anywhere]"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 className="text-lg font-semibold">{m.subject}</h2>
                  <p className="mt-1 break-all text-sm text-muted-foreground">
                    {/* A name that is the address again (typed into both fields) is shown once. */}
                    {m.name.trim().toLowerCase() === m.email.toLowerCase() ? null : (
                      <>
                        <span className="font-medium text-foreground">{m.name}</span> ·{" "}
                      </>
                    )}
                    {m.email} · <LocalTime ms={m.createdAt} />
                  </p>
                </div>
                <StatusBadge status={m.status} />
              </div>
              <p className="mt-3 whitespace-pre-wrap text-sm">{m.message}</p>
              {m.status === "answered" && m.answeredAt ? (
                <p className="mt-3 text-xs text-muted-foreground" data-testid="answered">
                  Answered by {m.answeredBy ?? "an admin"} on <LocalTime ms={m.answeredAt} />
                </p>
              ) : null}
              <div className="mt-4 flex flex-wrap items-center gap-3">
                <a href={replyHref(m.email, m.subject)} className={buttonClass("outline")}>
                  <Reply aria-hidden="true" className="size-4" />
                  Reply
                </a>
                {/* A real POST form per message: the toggle works without JavaScript. */}
                <Form method="post" action={here} preventScrollReset>
                  <input type="hidden" name="id" value={m.id} />
                  <input type="hidden" name="status" value={nextStatus} />
                  <Button type="submit" variant={m.status === "open" ? "primary" : "outline"} disabled={pending}>
                    {m.status === "open" ? "Mark answered" : "Mark open"}
                  </Button>
                </Form>
              </div>
            </Card>
          );
        })}
      </ol>

      <nav aria-label="Message pages" className="mt-6 flex justify-between text-sm">
        {paged ? (
          <Link to={inboxPath(query)} className="underline underline-offset-4">
            Newest messages
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link to={next} className="underline underline-offset-4">
            Older messages
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

function StatusBadge({ status }: { status: "open" | "answered" }) {
  return status === "open" ? (
    <span className="inline-flex items-center gap-1 rounded-full border border-border px-2.5 py-0.5 text-xs font-medium">
      <CircleDot aria-hidden="true" className="size-3.5" /> Open
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-accent px-2.5 py-0.5 text-xs font-medium text-muted-foreground">
      <CheckCircle2 aria-hidden="true" className="size-3.5" /> Answered
    </span>
  );
}
