import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/ui/card";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { RoomForm } from "~/features/rooms/admin-forms";
import { createRoomAction, NO_STORE } from "~/features/rooms/admin.server";
import { todayUtc } from "~/features/rooms/forms";
import { roomAdminPath } from "~/features/rooms/paths";
import { isOpen, listRooms } from "~/features/rooms/rooms.server";
import { allVentures } from "~/features/ventures/catalogue.server";
import { getDb } from "~/utils/db.server";
import { formatInteger, formatMediumDate } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.roomsAdmin;

/** Every room (newest first) and the ventures the form offers. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const now = Date.now();
  const [rooms, ventures] = await Promise.all([listRooms(db), allVentures(db)]);
  return json(
    {
      rooms: rooms.map((r) => ({
        id: r.id,
        title: r.title,
        venture: r.venture,
        documents: r.documents,
        investors: r.investors,
        createdAt: r.createdAt,
        state: r.closedAt !== null ? "Closed" : isOpen(r, now) ? "Open" : "Expired",
      })),
      ventures: ventures.map(({ id, name }) => ({ id, name })),
      today: todayUtc(now),
    },
    { headers: NO_STORE },
  );
}

/** `POST /admin/rooms`: opens a room (docs/rooms.md) and answers with its page. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const admin = await requireAdmin(request, context.cloudflare.env);
  return createRoomAction(request, context, admin);
}

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Location") ? actionHeaders : loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function RoomsAdmin() {
  const { rooms, ventures, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const ventureName = (id: string | null) => (id ? (ventures.find((v) => v.id === id)?.name ?? id) : "The group");
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-muted-foreground">{page.description}</p>
      </header>
      <section aria-labelledby="room-form-heading" className="mt-8">
        <h2 id="room-form-heading" className="mb-4 text-xl font-semibold">
          New room
        </h2>
        <RoomForm
          id="room-form"
          action={page.path}
          ventures={ventures}
          today={today}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          submitLabel="Open room"
        />
      </section>
      <section aria-labelledby="rooms-list-heading" className="mt-10">
        <h2 id="rooms-list-heading" className="text-xl font-semibold">
          All rooms ({formatInteger(rooms.length)})
        </h2>
        {rooms.length === 0 ? (
          <p className="mt-3 text-muted-foreground">No rooms yet.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {rooms.map((r) => (
              <li key={r.id}>
                <Card padding="sm" className="min-w-0">
                  <Link
                    to={roomAdminPath(r.id)}
                    className="wrap-anywhere font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {r.title}
                  </Link>
                  <p className="wrap-anywhere text-sm text-muted-foreground">
                    {ventureName(r.venture)} · {r.state} · {formatInteger(r.documents)} document(s) ·{" "}
                    {formatInteger(r.investors)} investor(s) · opened {formatMediumDate(new Date(r.createdAt))}
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
