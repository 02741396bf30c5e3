import { defer, json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft, ExternalLink, Globe } from "~/components/ui/icons.generated";
import { useEffect, useState } from "react";
import { StatusBadge } from "~/features/ventures/venture-card";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { ventureJsonLd } from "~/content/structured-data";
import { VENTURE_ALIASES, ventureUrl, type Venture } from "~/content/ventures";
import { factsOf, shownVenture } from "~/features/ventures/catalogue.server";
import { listPublished } from "~/features/documents/catalogue.server";
import { KeyFacts } from "~/features/ventures/key-facts";
import { LetterTile, VentureMark } from "~/features/ventures/venture-icon";
import { getConfig } from "~/utils/config.server";
import { checkEmbeddable, type EmbedCheck } from "~/features/ventures/embed-probe.server";
import { pageMeta, siteUrlFrom } from "~/utils/meta";
import { cardClass } from "~/components/ui/card";
import { FEED_LINK_TEXT, feedPath } from "~/features/news/feed";
import { NewsList } from "~/features/news/news-list";
import { newsListPath } from "~/features/news/news-pages";
import { listPublishedNews } from "~/features/news/news.server";
import { getDb } from "~/utils/db.server";
import { EventList } from "~/features/events/event-list";
import { eventsFeedPath } from "~/features/events/event-paths";
import { listedEvents, listItem } from "~/features/events/events.server";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** The embed's sandbox: scripts, same-origin, popups, forms and downloads. */
const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-forms allow-downloads";
/** A frame that has not loaded by then counts as failed. */
const LOAD_TIMEOUT_MS = 15_000;
/** The venture's newest news items the page lists. */
const LATEST_NEWS = 3;
/** The venture's upcoming events the page lists. */
const UPCOMING_EVENTS = 5;

export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const alias = VENTURE_ALIASES[id];
  if (alias) throw redirect(`/subsidiary/${alias}`, 301);
  const db = getDb(context.cloudflare.env);
  // A hidden venture answers exactly as an unknown one.
  const venture = await shownVenture(db, id);
  if (!venture)
    return json({ venture: null, embed: null, news: [], facts: [], documents: [], events: [] }, { status: 404 });
  const config = getConfig(context.cloudflare.env);
  const url = ventureUrl(venture);
  // Streamed: the page renders at once and learns later whether the site may be framed. Without
  // a configured domain there is nothing to ask, and the worker requests nothing.
  const embed = url && config.embedCheck ? checkEmbeddable(url, new URL(config.siteUrl).origin) : null;
  const [news, facts, library, { upcoming }] = await Promise.all([
    listPublishedNews(db, { venture: venture.id, limit: LATEST_NEWS }),
    factsOf(db, venture.id),
    listPublished(db, { members: false }),
    listedEvents(db, { venture: venture.id, limit: UPCOMING_EVENTS }),
  ]);
  const documents = library
    .filter((d) => d.ventureId === venture.id)
    .map(({ path, title, description }) => ({ path, title, description }));
  return defer({ venture, embed, news, facts, documents, events: upcoming.map(listItem) });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) =>
  data?.venture
    ? pageMeta({
        page: {
          title: data.venture.name,
          description: `${data.venture.name}: ${data.venture.tagline}. ${data.venture.description}`,
        },
        matches,
        path: location.pathname,
        jsonLd: ventureJsonLd(siteUrlFrom(matches), data.venture),
      }).concat(
        {
          tagName: "link",
          rel: "alternate",
          type: "application/atom+xml",
          title: `${data.venture.name} news`,
          href: feedPath(data.venture.id),
        },
        {
          tagName: "link",
          rel: "alternate",
          type: "text/calendar",
          title: `${data.venture.name} events`,
          href: eventsFeedPath(data.venture.id),
        },
      )
    : [{ title: `Subsidiary Not Found | ${SITE.name}` }, { name: "robots", content: "noindex" }];

export default function VenturePage() {
  const { venture, embed, news, facts, documents, events } = useLoaderData<typeof loader>();
  if (!venture) {
    return (
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-semibold">Subsidiary Not Found</h1>
        <p className="mt-3 text-muted-foreground">The subsidiary you're looking for doesn't exist.</p>
        <Link to="/" className="btn btn-primary mt-8">
          Back to Home
        </Link>
      </section>
    );
  }
  const url = ventureUrl(venture);
  return (
    <div className="mx-auto flex max-w-6xl flex-col px-4 pb-8">
      <nav aria-label="Breadcrumb" className="pt-6 text-sm text-muted-foreground">
        <ol className="flex flex-wrap gap-2">
          <li>
            <Link to="/" className="underline-offset-4 hover:underline">
              Home
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li>
            <Link to={pages.portfolio.path} className="underline-offset-4 hover:underline">
              Portfolio
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li aria-current="page" className="text-foreground">
            {venture.name}
          </li>
        </ol>
      </nav>
      <header className="flex flex-wrap items-center gap-4 py-6">
        <Link to={pages.portfolio.path} className="btn btn-outline" aria-label="Back to Portfolio">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back
        </Link>
        {/* Its logo once an admin uploads one; until then the name's first letter on its colour. */}
        {venture.logo ? (
          <VentureMark venture={venture} className="size-12" />
        ) : (
          <LetterTile venture={venture} className="size-12 text-xl" />
        )}
        {/* basis-48: on a phone the name takes a line of its own rather than a narrow column. */}
        <div className="min-w-0 flex-1 basis-48">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-3xl font-bold tracking-tight">{venture.name}</h1>
            <StatusBadge status={venture.status} />
          </div>
          <p className="mt-1 text-muted-foreground">{venture.tagline}</p>
        </div>
        {url ? (
          <a href={url} target="_blank" rel="noopener noreferrer" className="btn btn-primary">
            Open in New Tab
            <ExternalLink aria-hidden="true" className="size-4" />
          </a>
        ) : null}
      </header>
      <p className="mb-6 max-w-3xl text-muted-foreground">{venture.description}</p>
      {venture.youtubeVideoId ? (
        <section aria-labelledby="venture-video" className="mb-8">
          <h2 id="venture-video" className="mb-4 text-2xl font-semibold tracking-tight">
            Video
          </h2>
          <iframe
            src={`https://www.youtube-nocookie.com/embed/${venture.youtubeVideoId}`}
            title={`${venture.name} video`}
            width={560}
            height={315}
            loading="lazy"
            allow="encrypted-media; picture-in-picture"
            allowFullScreen
            className="aspect-video h-auto w-full max-w-3xl rounded-xl border border-border"
          />
        </section>
      ) : null}
      {facts.length ? <KeyFacts facts={facts} headingId="venture-facts" /> : null}
      {/* A new id is a new frame: the failed state never leaks from one venture to the next. */}
      {url ? <SiteEmbed key={venture.id} venture={venture} url={url} check={embed} /> : <NoWebsite venture={venture} />}
      <section aria-labelledby="venture-events" className="mt-10">
        <h2 id="venture-events" className="mb-4 text-2xl font-semibold tracking-tight">
          Upcoming events
        </h2>
        {events.length ? (
          <EventList items={events} headingLevel={3} />
        ) : (
          <p className="text-muted-foreground">No upcoming events from {venture.name}.</p>
        )}
        <p className="mt-4 flex flex-wrap gap-4">
          <a href={eventsFeedPath(venture.id)} className="text-primary underline underline-offset-2">
            {venture.name} calendar feed (.ics)
          </a>
        </p>
      </section>
      <section aria-labelledby="venture-news" className="mt-10">
        <h2 id="venture-news" className="mb-4 text-2xl font-semibold tracking-tight">
          Latest news
        </h2>
        {news.length ? (
          <NewsList items={news} headingLevel={3} />
        ) : (
          <p className="text-muted-foreground">No news from {venture.name} yet.</p>
        )}
        <p className="mt-4 flex flex-wrap gap-4">
          <Link to={newsListPath(venture.id)} className="text-primary underline underline-offset-2">
            All {venture.name} news
          </Link>
          <a href={feedPath(venture.id)} className="text-primary underline underline-offset-2">
            {FEED_LINK_TEXT}
          </a>
        </p>
      </section>
      <section aria-labelledby="venture-documents" className="mt-10">
        <h2 id="venture-documents" className="mb-4 text-2xl font-semibold tracking-tight">
          Documents
        </h2>
        {documents.length ? (
          <ul className="space-y-2">
            {documents.map((d) => (
              <li key={d.path}>
                <a href={d.path} className="text-primary underline underline-offset-2">
                  {d.title}
                </a>
                <span className="text-muted-foreground"> · {d.description}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">No public documents from {venture.name} yet.</p>
        )}
        <p className="mt-4">
          <Link to={`/documents?subsidiary=${venture.id}`} className="text-primary underline underline-offset-2">
            All {venture.name} documents in the library
          </Link>
        </p>
      </section>
    </div>
  );
}

/** The visit panel of a venture whose website the group has not configured: no frame, no link out. */
function NoWebsite({ venture }: { venture: Venture }) {
  return (
    <section
      aria-labelledby="no-website"
      className={cardClass("xl", "flex min-h-[24rem] flex-col items-center justify-center text-center")}
    >
      <Globe aria-hidden="true" className="size-12 text-muted-foreground" />
      <h2 id="no-website" className="mt-4 text-xl font-semibold">
        Website Coming Soon
      </h2>
      <p className="mt-2 text-muted-foreground">
        {venture.name} has no public website yet. Its documents below tell you more.
      </p>
    </section>
  );
}

function SiteEmbed({ venture, url, check }: { venture: Venture; url: string; check: Promise<EmbedCheck> | null }) {
  // "server": the first render, shared with the HTML. The frame mounts on the client, so its load
  // and error events are never missed during hydration, and only once the server's check (when on)
  // has said the site may be framed: a refusing site is never requested.
  const [state, setState] = useState<"server" | "checking" | "loading" | "loaded" | "failed">("server");

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const mount = () => {
      setState("loading");
      timer = setTimeout(() => live && setState((s) => (s === "loading" ? "failed" : s)), LOAD_TIMEOUT_MS);
    };
    if (check) {
      setState("checking");
      check.then(
        (r) => live && (r.embeddable ? mount() : setState("failed")),
        () => live && mount(),
      );
    } else mount();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [check]);

  if (state === "server") {
    // The frame needs JavaScript to tell a refused or dead site from a working one, and the
    // framed site needs it too: without it, 'Open in New Tab' above is the way to the site.
    return (
      <noscript>
        <p className={cardClass("xl", "text-center text-muted-foreground")}>
          Use “Open in New Tab” to visit {venture.name}.
        </p>
      </noscript>
    );
  }
  if (state === "checking") {
    return (
      <p
        role="status"
        className={cardClass("xl", "flex min-h-[24rem] items-center justify-center text-muted-foreground")}
      >
        Loading {venture.name}…
      </p>
    );
  }
  if (state === "failed") {
    return (
      <div
        role="alert"
        className={cardClass("xl", "flex min-h-[24rem] flex-col items-center justify-center text-center")}
      >
        <Globe aria-hidden="true" className="size-12 text-muted-foreground" />
        <h2 className="mt-4 text-xl font-semibold">Unable to Load Website</h2>
        <p className="mt-2 text-muted-foreground">This website cannot be embedded. Please visit it directly.</p>
        <a href={url} target="_blank" rel="noopener noreferrer" className="btn btn-primary mt-6">
          Visit {venture.name}
          <ExternalLink aria-hidden="true" className="size-4" />
        </a>
      </div>
    );
  }
  return (
    <iframe
      src={url}
      title={`${venture.name} website`}
      sandbox={SANDBOX}
      referrerPolicy="strict-origin-when-cross-origin"
      className="h-[70vh] min-h-[24rem] w-full rounded-xl border border-border bg-white"
      data-state={state}
      onLoad={() => setState((s) => (s === "loading" ? "loaded" : s))}
      onError={() => setState("failed")}
    />
  );
}
