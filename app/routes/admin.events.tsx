import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AdminList, AdminSection, RecordLink } from "~/components/admin/admin-list";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { eventAction } from "~/features/events/event-admin.server";
import { allVentures } from "~/features/ventures/catalogue.server";
import { EventForm } from "~/features/events/event-form-fields";
import { eventAdminPath } from "~/features/events/event-paths";
import { zoneChoices } from "~/features/events/event-time";
import { eventWhen, listAllEvents } from "~/features/events/events.server";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
import { AdminPage } from "~/components/admin/admin-page";
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
      zones: zoneChoices(events.map((e) => e.timezone)),
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
    <AdminPage page={page}>
      <AdminSection id="event-form-heading" title="New event" headingGap="form" first>
        <EventForm
          action={page.path}
          zones={zones}
          ventures={ventures}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          submitLabel="Create event"
        />
      </AdminSection>
      <AdminList
        id="events-list-heading"
        title="All events"
        items={events}
        itemKey={(e) => e.id}
        empty="No events yet."
      >
        {(e) => (
          <RecordLink to={eventAdminPath(e.id)} title={e.title}>
            {e.when} · {ventureName(e.venture)} · {e.published ? "Published" : "Draft"}
            {e.status === "cancelled" ? " · Cancelled" : ""}
          </RecordLink>
        )}
      </AdminList>
    </AdminPage>
  );
}
