import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/page-header";
import { pages } from "~/content/pages";
import { AlertsSignup } from "~/features/alerts/alerts-signup";
import { EventList } from "~/features/events/event-list";
import { eventsFeedPath } from "~/features/events/event-paths";
import { listedEvents, listItem } from "~/features/events/events.server";
import { useRootData } from "~/root-data";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.events;

/** Upcoming published events, soonest first, then past ones, latest first. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { upcoming, past } = await listedEvents(getDb(context.cloudflare.env));
  return json({ upcoming: upcoming.map(listItem), past: past.map(listItem) });
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  {
    tagName: "link",
    rel: "alternate",
    type: "text/calendar",
    title: "AFX Holding Group events",
    href: eventsFeedPath(),
  },
];

export default function Events() {
  const { upcoming, past } = useLoaderData<typeof loader>();
  const ventures = useRootData()?.ventures ?? [];
  return (
    <>
      <PageHeader heading={page.heading}>
        <p>
          Investor days, demo days, webcasts and meetings of AFX Holding Group and its ventures. Times are the
          organiser&apos;s, with their offset from UTC.
        </p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-12 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0">
          <section aria-labelledby="upcoming-heading">
            <h2 id="upcoming-heading" className="mb-4 text-2xl font-semibold tracking-tight">
              Upcoming
            </h2>
            {upcoming.length ? (
              <EventList items={upcoming} headingLevel={3} />
            ) : (
              <p className="text-muted-foreground">No events planned at the moment.</p>
            )}
          </section>
          <section aria-labelledby="past-heading" className="mt-10">
            <h2 id="past-heading" className="mb-4 text-2xl font-semibold tracking-tight">
              Past
            </h2>
            {past.length ? (
              <EventList items={past} headingLevel={3} />
            ) : (
              <p className="text-muted-foreground">No past events.</p>
            )}
          </section>
        </div>
        <aside className="grid content-start gap-6">
          <section aria-labelledby="subscribe-heading" className="rounded-xl border border-border p-5">
            <h2 id="subscribe-heading" className="text-lg font-semibold">
              Subscribe in your calendar
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">
              Add a feed once; your calendar follows each change and cancellation.
            </p>
            <ul className="mt-3 grid gap-1 text-sm">
              <li>
                <a href={eventsFeedPath()} className="text-primary underline underline-offset-2">
                  Every event (.ics)
                </a>
              </li>
              {ventures.map((v) => (
                <li key={v.id}>
                  <a href={eventsFeedPath(v.id)} className="text-primary underline underline-offset-2">
                    {v.name} events (.ics)
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <AlertsSignup source="events" />
        </aside>
      </div>
    </>
  );
}
