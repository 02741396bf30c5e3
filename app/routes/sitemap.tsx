import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { NewTabLink } from "~/components/ui/new-tab-link";
import { Section } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { pages, type PageInfo } from "~/content/pages";
import { ventureUrl } from "~/content/ventures";
import { pageMeta } from "~/utils/meta";
import { useRootData } from "~/root-data";
import { cardClass } from "~/components/ui/card";

const page = pages.sitemap;

type Entry = { label: string; path: string; reload?: boolean };
const entry = (p: PageInfo, label = p.title): Entry => ({ label, path: p.path });

/** The sitemap page: Main Pages, Company, Account & Settings, then every subsidiary. */
const SITEMAP_GROUPS: { id: string; heading: string; entries: Entry[] }[] = [
  {
    id: "main",
    heading: "Main Pages",
    entries: [entry(pages.home, "Home"), entry(pages.portfolio), entry(pages.blog), entry(pages.store)],
  },
  {
    id: "company",
    heading: "Company",
    entries: [
      entry(pages.investors),
      entry(pages.news),
      entry(pages.events),
      entry(pages.funding),
      entry(pages.consultancy),
      entry(pages.partners),
      entry(pages.documents),
      entry(pages.legal),
      entry(pages.sitemap),
    ],
  },
  {
    id: "account",
    heading: "Account & Settings",
    entries: [
      // A full navigation: /api/login starts the sign-in redirect.
      { label: "Log In", path: "/api/login", reload: true },
      entry(pages.settings),
      entry(pages.notifications),
      entry(pages.help),
    ],
  },
];

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

const linkClass = "text-primary underline-offset-4 hover:underline";

export default function Sitemap() {
  const ventures = useRootData()?.ventures ?? [];
  return (
    <>
      <PageHeader heading={page.heading}>{page.description}</PageHeader>
      <div className="mx-auto grid max-w-6xl gap-4 px-4 sm:grid-cols-3">
        {SITEMAP_GROUPS.map((g) => (
          <section key={g.id} aria-labelledby={`sitemap-${g.id}`} className={cardClass()}>
            <h2 id={`sitemap-${g.id}`} className="text-lg font-semibold">
              {g.heading}
            </h2>
            <ul className="mt-3 space-y-2">
              {g.entries.map((e) => (
                <li key={e.path}>
                  <Link to={e.path} reloadDocument={e.reload} className={linkClass}>
                    {e.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <Section id="sitemap-subsidiaries" heading="Subsidiaries">
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {ventures.map((s) => {
            const site = ventureUrl(s);
            return (
              <li key={s.id} className="rounded-lg border border-border bg-card p-4">
                <Link to={`/subsidiary/${s.id}`} className={`font-medium ${linkClass}`}>
                  {s.name}
                </Link>
                {site ? (
                  <p className="mt-1 text-sm">
                    <NewTabLink
                      href={site}
                      iconClassName="size-3"
                      className="inline-flex items-center gap-1 text-muted-foreground underline underline-offset-4"
                    >
                      {s.domain}
                    </NewTabLink>
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      </Section>
    </>
  );
}
