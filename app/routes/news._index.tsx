import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/page-header";
import { pages } from "~/content/pages";
import { shownVenture } from "~/features/ventures/catalogue.server";
import { useRootData } from "~/root-data";
import { FEED_LINK_TEXT, feedPath } from "~/features/news/feed";
import { NewsList } from "~/features/news/news-list";
import { newsListPath } from "~/features/news/news-pages";
import { listPublishedNews } from "~/features/news/news.server";
import { AlertsSignup } from "~/features/alerts/alerts-signup";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.news;

/** `?venture=<id>` shows one venture's news; an unknown venture is a 404 (no page to cache per typo). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const param = new URL(request.url).searchParams.get("venture");
  const db = getDb(context.cloudflare.env);
  const venture = param ? await shownVenture(db, param) : null;
  if (param && !venture) throw new Response("No such venture.", { status: 404 });
  const items = await listPublishedNews(db, { venture: venture?.id ?? null });
  return json({ items, venture: venture ? { id: venture.id, name: venture.name } : null });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta({
    page: data?.venture
      ? {
          ...page,
          title: `${data.venture.name} news`,
          description: `News from ${data.venture.name}, an AFX Holding Group venture.`,
        }
      : page,
    matches,
    path: newsListPath(data?.venture?.id),
  }),
  {
    tagName: "link",
    rel: "alternate",
    type: "application/atom+xml",
    title: data?.venture ? `${data.venture.name} news` : "AFX Holding Group news",
    href: feedPath(data?.venture?.id),
  },
];

export default function News() {
  const { items, venture } = useLoaderData<typeof loader>();
  const ventures = useRootData()?.ventures;
  return (
    <>
      <PageHeader heading={venture ? `${venture.name} news` : page.heading}>
        <p>
          {venture ? `News from ${venture.name}.` : "News from AFX Holding Group and its ventures."}{" "}
          <a href={feedPath(venture?.id)} className="text-primary underline underline-offset-2">
            {FEED_LINK_TEXT}
          </a>{" "}
          (an Atom feed: paste its address into any news reader app), or get an e-mail for each announcement below.
        </p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-12 lg:grid-cols-[1fr_20rem]">
        <div>
          <nav aria-label="News by venture" className="mb-6 flex flex-wrap gap-2 text-sm">
            <Link
              to={page.path}
              aria-current={venture ? undefined : "page"}
              className="rounded-full border border-border px-3 py-1 aria-[current=page]:bg-accent"
            >
              All
            </Link>
            {(ventures ?? []).map((s) => (
              <Link
                key={s.id}
                to={newsListPath(s.id)}
                aria-current={venture?.id === s.id ? "page" : undefined}
                className="rounded-full border border-border px-3 py-1 aria-[current=page]:bg-accent"
              >
                {s.name}
              </Link>
            ))}
          </nav>
          {items.length ? <NewsList items={items} /> : <p className="text-muted-foreground">No news yet.</p>}
        </div>
        <AlertsSignup source="news" />
      </div>
    </>
  );
}
