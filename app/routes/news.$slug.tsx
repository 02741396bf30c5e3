import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { AlertsSignup } from "~/features/alerts/alerts-signup";
import { feedPath } from "~/features/news/feed";
import { newsPath } from "~/features/news/news-form";
import { NewsDate, useVentureLabel } from "~/features/news/news-list";
import { newsListPath } from "~/features/news/news-pages";
import { renderMarkdown } from "~/features/news/markdown.server";
import { publishedNewsBySlug } from "~/features/news/news.server";
import { getDb } from "~/utils/db.server";
import { pageMeta, siteUrlFrom } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const item = await publishedNewsBySlug(getDb(context.cloudflare.env), params.slug ?? "");
  if (!item) return json({ item: null }, { status: 404 });
  const { body, ...rest } = item;
  return json({ item: { ...rest, html: renderMarkdown(body) } });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const item = data?.item;
  if (!item) return [{ title: `News Not Found | ${SITE.name}` }, { name: "robots", content: "noindex" }];
  const siteUrl = siteUrlFrom(matches);
  const url = `${siteUrl}${newsPath(item.slug)}`;
  const publisher = { "@type": "Organization", name: SITE.name, url: `${siteUrl}/`, logo: `${siteUrl}/favicon.svg` };
  return [
    ...pageMeta({
      page: { title: item.title, description: item.summary },
      matches,
      path: newsPath(item.slug),
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        headline: item.title,
        description: item.summary,
        datePublished: new Date(item.publishedAt).toISOString(),
        dateModified: new Date(item.updatedAt).toISOString(),
        url,
        mainEntityOfPage: url,
        author: publisher,
        publisher,
      },
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: "AFX Holding Group news",
      href: feedPath(),
    },
  ];
};

export default function NewsArticlePage() {
  const { item } = useLoaderData<typeof loader>();
  const ventureLabel = useVentureLabel();
  if (!item) {
    return (
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-semibold">News Not Found</h1>
        <p className="mt-3 text-muted-foreground">This news item does not exist or is no longer published.</p>
        <Link to={pages.news.path} className="btn btn-primary mt-8">
          All news
        </Link>
      </section>
    );
  }
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-12 pt-10 lg:grid-cols-[1fr_20rem]">
      <article>
        <p className="text-sm text-muted-foreground">
          <Link to={pages.news.path} className="underline-offset-4 hover:underline">
            News
          </Link>{" "}
          ·{" "}
          <Link to={newsListPath(item.venture)} className="underline-offset-4 hover:underline">
            {ventureLabel(item.venture)}
          </Link>
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{item.title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          <NewsDate at={item.publishedAt} />
        </p>
        <p className="mt-4 text-lg text-muted-foreground">{item.summary}</p>
        {/* Rendered by markdown.server.ts: raw HTML off, links and images judged. */}
        <div className="news-body mt-6" dangerouslySetInnerHTML={{ __html: item.html }} />
      </article>
      <AlertsSignup source="news-item" />
    </div>
  );
}
