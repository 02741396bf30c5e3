import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Building2, Download, Lock } from "~/components/ui/icons.generated";
import { PageHeader } from "~/components/page-header";
import { AlertsSignup } from "~/features/alerts/alerts-signup";
import { VentureMark } from "~/features/ventures/venture-icon";
import { pages } from "~/content/pages";
import { VENTURE_ALIASES, type Venture } from "~/content/ventures";
import { shownVenture } from "~/features/ventures/catalogue.server";
import { useRootData } from "~/root-data";
import { getUser } from "~/features/auth/users.server";
import { listPublished, type ListedDocument } from "~/features/documents/catalogue.server";
import { DOCUMENT_CATEGORIES, formatBytes, UNAVAILABLE_PARAM, UNAVAILABLE_TEXT } from "~/features/documents/library";
import { LOGIN_PATH } from "~/components/shell/nav-links";
import { documentsJsonLd } from "~/features/documents/structured-data";
import { getDb } from "~/utils/db.server";
import { formatLongDate } from "~/utils/format";
import { pageMeta, siteUrlFrom } from "~/utils/meta";
import { cardClass } from "~/components/ui/card";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.documents;

/**
 * The documents page: the library's published documents (members-only ones for members too),
 * grouped by category; `?subsidiary=` narrows to one venture and changes the heading. An unknown
 * id is said so, with every document below (still 200: the page exists). Its HTML cache entry is
 * keyed on the library's state, so a withdrawn document leaves the list at once
 * (worker/server.ts, docs/decisions/073-members-only-documents.md).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const url = new URL(request.url);
  const requested = url.searchParams.get("subsidiary")?.trim() || null;
  const venture = requested ? await shownVenture(getDb(env), VENTURE_ALIASES[requested] ?? requested) : undefined;
  const member = Boolean(await getUser(request, env));
  const all = await listPublished(getDb(env), { members: member });
  return {
    requested,
    member,
    // Arrived from a document path that serves no file (serve-route.server.ts): say so.
    unavailable: url.searchParams.has(UNAVAILABLE_PARAM),
    venture: venture ? { id: venture.id, name: venture.name } : null,
    documents: venture ? all.filter((d) => d.ventureId === venture.id) : all,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta({
    page: data?.venture
      ? {
          ...page,
          title: `${data.venture.name} Documents`,
          description: `The documents of ${data.venture.name}, as PDF downloads.`,
        }
      : page,
    matches,
    path: page.path + (data?.venture ? `?subsidiary=${data.venture.id}` : ""),
    jsonLd: data ? documentsJsonLd(siteUrlFrom(matches), data.documents) : undefined,
  });

export default function Documents() {
  const { requested, venture, documents: list, unavailable, member } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader heading={venture ? `${venture.name} Documents` : page.heading}>
        {venture ? (
          <p>
            The documents of {venture.name}.{" "}
            <Link to={page.path} className="text-primary underline underline-offset-4">
              Show all documents
            </Link>
          </p>
        ) : (
          <p>{page.description}</p>
        )}
      </PageHeader>
      {unavailable ? (
        <div role="status" className="mx-auto mb-6 max-w-6xl px-4" data-testid="document-unavailable">
          <p className="rounded-lg border border-border bg-muted p-4 text-sm">
            {UNAVAILABLE_TEXT.notice}
            {member ? null : (
              <>
                {" "}
                <a
                  href={`${LOGIN_PATH}?returnTo=${encodeURIComponent(page.path)}`}
                  className="font-medium text-primary underline underline-offset-4"
                >
                  {UNAVAILABLE_TEXT.members}
                </a>
              </>
            )}
          </p>
        </div>
      ) : null}
      {requested && !venture ? (
        <div role="status" className="mx-auto mb-6 max-w-6xl px-4">
          <p className="rounded-lg border border-border bg-muted p-4 text-sm">
            We have no venture called “{requested}”. Showing all documents.
          </p>
        </div>
      ) : null}
      {list.length === 0 ? (
        <p className="mx-auto max-w-6xl px-4 pb-10 text-muted-foreground">No documents are published yet.</p>
      ) : null}
      {DOCUMENT_CATEGORIES.map((category) => {
        const inCategory = list.filter((d) => d.category === category);
        if (!inCategory.length) return null;
        const id = `category-${category.toLowerCase().replace(/\W+/g, "-")}`;
        return (
          <section key={category} aria-labelledby={id} className="mx-auto max-w-6xl px-4 pb-10">
            <h2 id={id} className="mb-4 text-2xl font-semibold">
              {category}
            </h2>
            {/* A card list (tailwind.css): each card laid out when near the screen; ~240px tall. */}
            <ul className="card-grid card-grid-fluid grid gap-4 [--card-height:240px] sm:grid-cols-2 lg:grid-cols-3">
              {inCategory.map((d) => (
                <DocumentCard key={d.id} doc={d} />
              ))}
            </ul>
          </section>
        );
      })}
      <div className="mx-auto max-w-6xl px-4 pb-12">
        <AlertsSignup source="documents" className="max-w-xl" />
      </div>
    </>
  );
}

function DocumentCard({ doc }: { doc: ListedDocument }) {
  const venture: Venture | undefined = useRootData()?.ventures.find((s) => s.id === doc.ventureId);
  const date = new Date(doc.updatedAt);
  return (
    <li className={cardClass("lg", "flex flex-col")} data-testid="document">
      <div className="flex items-start gap-4">
        {venture ? (
          <VentureMark venture={venture} className="size-10" />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground"
          >
            <Building2 className="size-5" />
          </span>
        )}
        <div>
          <h3 className="font-semibold">{doc.title}</h3>
          {doc.visibility === "members" ? (
            <p className="mt-1 inline-flex items-center gap-1 text-xs font-medium" data-testid="members-only">
              <Lock aria-hidden="true" className="size-3.5" /> Members only
            </p>
          ) : null}
          <p className="mt-1 text-sm text-muted-foreground">{doc.description}</p>
        </div>
      </div>
      <dl className="mt-4 flex gap-4 text-xs text-muted-foreground">
        <div className="flex gap-1">
          <dt>Size:</dt>
          <dd data-testid="size">{formatBytes(doc.size)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Updated:</dt>
          <dd>
            <time dateTime={date.toISOString().slice(0, 10)}>{formatLongDate(date)}</time>
          </dd>
        </div>
      </dl>
      <a
        href={doc.path}
        download
        className="btn btn-primary mt-4 self-start"
        aria-label={`Download PDF: ${doc.title}, ${formatBytes(doc.size)}`}
      >
        <Download aria-hidden="true" className="size-4" />
        Download PDF
      </a>
    </li>
  );
}
