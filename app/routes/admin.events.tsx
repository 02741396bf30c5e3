import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { eventAction } from "~/features/events/event-admin.server";
import { allVentures } from "~/features/ventures/catalogue.server";
import { EventForm } from "~/features/events/event-form-fields";
import { eventAdminPath } from "~/features/events/event-paths";
import { timeZoneOptions } from "~/features/events/event-time";
import { eventWhen, listAllEvents } from "~/features/events/events.server";
import { getDb } from "~/utils/db.server";
import { formatInteger } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.eventsAdmin;

/** Every event (latest start first) and the zones the form offers. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [events, ventures] = await Promise.all([listAllEvents(db), allVentures(db)]);
  return json(
    {
      events: events.map((e) => ({
        id: e.id,
        title: e.title,
        when: eventWhen(e),
        venture: e.venture,
        status: e.status,
        published: e.published,
      })),
      zones: timeZoneOptions(),
      ventures: ventures.map(({ id, name }) => ({ id, name })),
    },
    { headers: NO_STORE },
  );
}

/** `POST /admin/events`: creates an event (docs/decisions/095-events.md). */
export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const admin = await requireAdmin(request, context.cloudflare.env);
  return eventAction(request, context, admin, null);
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function EventsAdmin() {
  const { events, zones, ventures } = useLoaderData<typeof loader>();
  const ventureName = (id: string | null) => (id ? (ventures.find((v) => v.id === id)?.name ?? id) : "The group");
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>
      <section aria-labelledby="event-form-heading" className="mt-8">
        <h2 id="event-form-heading" className="mb-4 text-xl font-semibold">
          New event
        </h2>
        <EventForm
          action={page.path}
          zones={zones}
          ventures={ventures}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          submitLabel="Create event"
        />
      </section>
      <section aria-labelledby="events-list-heading" className="mt-10">
        <h2 id="events-list-heading" className="text-xl font-semibold">
          All events ({formatInteger(events.length)})
        </h2>
        {events.length === 0 ? (
          <p className="mt-3 text-muted-foreground">No events yet.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {events.map((e) => (
              <li key={e.id}>
                <Card padding="sm" className="min-w-0">
                  <Link
                    to={eventAdminPath(e.id)}
                    className="wrap-anywhere font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {e.title}
                  </Link>
                  <p className="wrap-anywhere text-sm text-muted-foreground">
                    {e.when} · {ventureName(e.venture)} · {e.published ? "Published" : "Draft"}
                    {e.status === "cancelled" ? " · Cancelled" : ""}
                  </p>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
