import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { CardGrid, ContactCta, Section, StatTiles, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { investorsCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { AlertsSignup } from "~/features/alerts/alerts-signup";
import { feedPath } from "~/features/news/feed";
import { NewsList } from "~/features/news/news-list";
import { listPublishedNews } from "~/features/news/news.server";
import { factsOf } from "~/features/ventures/catalogue.server";
import { factTile, figureFact, FIGURE_LABELS } from "~/features/ventures/figures";
import { KeyFacts } from "~/features/ventures/key-facts";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";

const page = pages.investors;
/** The newest news items the page lists. */
const LATEST = 3;

export async function loader({ context }: LoaderFunctionArgs) {
  const db = getDb(context.cloudflare.env);
  const [news, facts] = await Promise.all([listPublishedNews(db, { limit: LATEST }), factsOf(db, null)]);
  return json({ news, facts });
}

export const meta: MetaFunction = ({ matches }) => [
  ...pageMeta({ page, matches }),
  {
    tagName: "link",
    rel: "alternate",
    type: "application/atom+xml",
    title: "AFX Holding Group news",
    href: feedPath(),
  },
];

export default function Investors() {
  const { investorEmail } = useContact();
  const { news, facts } = useLoaderData<typeof loader>();
  // The group's "Active Ventures" fact is the first tile; the other facts are listed below.
  const ventures = figureFact(facts, FIGURE_LABELS.ventures);
  const tiles = [...(ventures ? [factTile(ventures)] : []), ...copy.tiles];
  const listed = facts.filter((f) => f.id !== ventures?.id);
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <div className="mx-auto max-w-6xl px-4">
        <StatTiles tiles={tiles} />
        {listed.length ? (
          <div className="mt-10">
            <KeyFacts facts={listed} headingId="group-facts" heading="The group's key facts" />
          </div>
        ) : null}
      </div>
      <Section id="why-heading" heading={copy.whyHeading}>
        <CardGrid cards={copy.why} columns={4} />
      </Section>
      <Section id="investor-news" heading="Latest news">
        <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
          <div>
            {news.length ? (
              <NewsList items={news} headingLevel={3} />
            ) : (
              <p className="text-muted-foreground">No news yet.</p>
            )}
            <p className="mt-4 flex flex-wrap gap-x-6">
              <Link to={pages.news.path} className="tap-target text-primary underline underline-offset-2">
                All news
              </Link>
              <Link to={pages.events.path} className="tap-target text-primary underline underline-offset-2">
                Events: investor days and webcasts
              </Link>
            </p>
          </div>
          <AlertsSignup source="investors" />
        </div>
      </Section>
      <ContactCta
        id="investor-contact"
        heading={copy.ctaHeading}
        email={investorEmail}
        emailLabel={copy.emailCta}
        subject="Investing in AFX Holding Group"
        callLabel={copy.callCta}
      />
    </>
  );
}
