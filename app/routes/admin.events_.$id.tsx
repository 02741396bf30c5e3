import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/button";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { eventAction, eventIdOf } from "~/features/events/event-admin.server";
import { EventForm } from "~/features/events/event-form-fields";
import { allVentures } from "~/features/ventures/catalogue.server";
import { eventAdminPath, eventIcsPath, eventPath } from "~/features/events/event-paths";
import { instantToLocal, timeZoneOptions } from "~/features/events/event-time";
import { eventById, eventWhen } from "~/features/events/events.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** One event in the form, and the confirmation step of its deletion (`?confirm=delete`). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const id = eventIdOf(params.id);
  const db = getDb(env);
  const [event, ventures] = await Promise.all([id === null ? null : eventById(db, id), allVentures(db)]);
  if (!event) throw new Response("No such event.", { status: 404, headers: NO_STORE });
  const local = (ms: number, date: string | null) =>
    event.allDay && date ? `${date}T00:00` : instantToLocal(ms, event.timezone);
  return json(
    {
      event: {
        id: event.id,
        slug: event.slug,
        title: event.title,
        when: eventWhen(event),
        status: event.status,
        published: event.published,
        sequence: event.sequence,
        uid: event.uid,
      },
      values: {
        title: event.title,
        description: event.description,
        start: local(event.startsAt, event.startDate),
        end: event.allDay ? `${event.endDate}T00:00` : local(event.endsAt, null),
        timezone: event.timezone,
        ...(event.allDay ? { allDay: "on" as const } : {}),
        location: event.location,
        url: event.url ?? "",
        venture: event.venture ?? "",
        ...(event.published ? { publish: "on" as const } : {}),
        ...(event.alert ? { alert: "on" as const } : {}),
      },
      zones: timeZoneOptions(),
      ventures: ventures.map(({ id, name }) => ({ id, name })),
      confirmDelete: new URL(request.url).searchParams.get("confirm") === "delete",
    },
    { headers: NO_STORE },
  );
}

/** `POST /admin/events/<id>`: `save` (the form), `cancel` or `delete`. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const admin = await requireAdmin(request, context.cloudflare.env);
  const id = eventIdOf(params.id);
  if (id === null) throw new Response("No such event.", { status: 404, headers: NO_STORE });
  return eventAction(request, context, admin, id);
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.event.title ?? "Event"} | ${pages.eventsAdmin.title} | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

export default function EventAdmin() {
  const { event, values, zones, ventures, confirmDelete } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const path = eventAdminPath(event.id);
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10">
      <Link to={pages.eventsAdmin.path} className="text-sm underline underline-offset-4">
        All events
      </Link>
      <h1 className="wrap-anywhere mt-4 text-3xl font-bold tracking-tight">{event.title}</h1>
      <p className="wrap-anywhere mt-2 text-sm text-muted-foreground">
        {event.when} · {event.published ? "Published" : "Draft"}
        {event.status === "cancelled" ? " · Cancelled" : ""} · sequence {event.sequence}
      </p>
      {event.published ? (
        <p className="mt-2 flex flex-wrap gap-x-4 text-sm">
          <Link to={eventPath(event.slug)} className="text-primary underline underline-offset-4">
            View the public page
          </Link>
          <a href={eventIcsPath(event.slug)} className="text-primary underline underline-offset-4">
            Its calendar file
          </a>
        </p>
      ) : null}
      <section aria-labelledby="edit-heading" className="mt-8">
        <h2 id="edit-heading" className="mb-4 text-xl font-semibold">
          Edit
        </h2>
        <EventForm
          action={path}
          zones={zones}
          ventures={ventures}
          defaultValue={values}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          submitLabel="Save changes"
        />
      </section>
      {confirmDelete ? (
        <section className="mt-8 rounded-xl border border-destructive/50 p-6" aria-labelledby="confirm-title">
          <h2 id="confirm-title" className="text-lg font-semibold">
            Delete this event?
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">
            It leaves the site and every calendar feed; calendars that subscribed drop it at their next poll. To tell
            them it is off instead, cancel it. This cannot be undone.
          </p>
          <Form method="post" action={path} className="mt-4 flex flex-wrap gap-3">
            <input type="hidden" name="intent" value="delete" />
            <Button type="submit" variant="destructive">
              Delete event
            </Button>
            <Link to={path} className={buttonClass("outline")}>
              Keep it
            </Link>
          </Form>
        </section>
      ) : (
        <div className="mt-8 flex flex-wrap gap-3">
          {event.status === "scheduled" ? (
            <Form method="post" action={path}>
              <input type="hidden" name="intent" value="cancel" />
              <Button type="submit" variant="outline">
                Cancel event
              </Button>
            </Form>
          ) : null}
          <Link to="?confirm=delete" className={buttonClass("outline")}>
            Delete…
          </Link>
        </div>
      )}
    </div>
  );
}
