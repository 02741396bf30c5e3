import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmStep, confirmIntent } from "~/components/confirm-step";
import { Button, buttonClass } from "~/components/ui/button";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { eventAction, eventIdOf } from "~/features/events/event-admin.server";
import { EventForm } from "~/features/events/event-form-fields";
import { allVentures } from "~/features/ventures/catalogue.server";
import { eventAdminPath, eventIcsPath, eventPath } from "~/features/events/event-paths";
import { instantToLocal, zoneChoices } from "~/features/events/event-time";
import { eventById, eventWhen } from "~/features/events/events.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** The buttons that ask first: a cancel tells every subscribed calendar, a delete cannot be undone. */
const CONFIRMED = ["cancel", "delete"] as const;

/** One event in the form, and the confirmation step of its cancel or deletion (`?confirm=…`). */
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
      zones: zoneChoices([event.timezone]),
      ventures: ventures.map(({ id, name }) => ({ id, name })),
      /** The step `?confirm=cancel` or `?confirm=delete` asks for (ConfirmStep, no JavaScript needed). */
      confirm: confirmIntent(request, CONFIRMED),
    },
    { headers: NO_STORE },
  );
}

/** `POST /admin/events/<id>`: `save` (the form), `cancel`, `reinstate` or `delete`. */
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
  const { event, values, zones, ventures, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const path = eventAdminPath(event.id);
  const cancelled = event.status === "cancelled";
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10">
      <Link to={pages.eventsAdmin.path} className="tap-target text-sm underline underline-offset-4">
        All events
      </Link>
      <h1 className="wrap-anywhere mt-4 text-3xl font-bold tracking-tight">{event.title}</h1>
      <p className="wrap-anywhere mt-2 text-sm text-muted-foreground" data-testid="event-state">
        {event.when} · {event.published ? "Published" : "Draft"}
        {cancelled ? " · Cancelled" : ""}
      </p>
      {event.published ? (
        <p className="mt-2 flex flex-wrap gap-x-4 text-sm">
          <Link to={eventPath(event.slug)} className="tap-target text-primary underline underline-offset-4">
            View the public page
          </Link>
          <a href={eventIcsPath(event.slug)} className="tap-target text-primary underline underline-offset-4">
            Add to calendar
          </a>
        </p>
      ) : null}
      {confirm === "cancel" ? (
        <ConfirmStep
          title="Cancel this event?"
          body="Its page and the lists mark it cancelled, its reminder is not sent, and every calendar that subscribed shows it as cancelled (most drop it) at its next poll. You can reinstate it afterwards."
          button="Cancel event"
          intent="cancel"
          action={path}
          cancelTo={path}
        />
      ) : confirm === "delete" ? (
        <ConfirmStep
          title="Delete this event?"
          body="It leaves the site and every calendar feed; calendars that subscribed drop it at their next poll. To tell them it is off instead, cancel it. This cannot be undone."
          button="Delete event"
          intent="delete"
          action={path}
          cancelTo={path}
        />
      ) : (
        <div className="mt-8 flex flex-wrap gap-3">
          {cancelled ? (
            <Form method="post" action={path}>
              <input type="hidden" name="intent" value="reinstate" />
              <Button type="submit" variant="outline">
                Reinstate
              </Button>
            </Form>
          ) : (
            <Link to="?confirm=cancel" className={buttonClass("outline")}>
              Cancel event…
            </Link>
          )}
          <Link to="?confirm=delete" className={buttonClass("outline")}>
            Delete…
          </Link>
        </div>
      )}
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
    </div>
  );
}
