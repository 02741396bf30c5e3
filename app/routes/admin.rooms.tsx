import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AdminList, AdminSection, RecordLink } from "~/components/admin/admin-list";
import { AdminPage } from "~/components/admin/admin-page";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { RoomForm } from "~/features/rooms/admin-forms";
import { createRoomAction } from "~/features/rooms/admin.server";
import { todayUtc } from "~/features/rooms/forms";
import { roomAdminPath } from "~/features/rooms/paths";
import { isOpen, listRooms } from "~/features/rooms/rooms.server";
import { allVentures } from "~/features/ventures/catalogue.server";
import { getDb } from "~/utils/db.server";
import { formatInteger, formatMediumDate } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
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

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function RoomsAdmin() {
  const { rooms, ventures, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const ventureName = (id: string | null) => (id ? (ventures.find((v) => v.id === id)?.name ?? id) : "The group");
  return (
    <AdminPage page={page}>
      <AdminSection id="room-form-heading" title="New room" headingGap="form" first>
        <RoomForm
          id="room-form"
          action={page.path}
          ventures={ventures}
          today={today}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          submitLabel="Open room"
        />
      </AdminSection>
      <AdminList id="rooms-list-heading" title="All rooms" items={rooms} itemKey={(r) => r.id} empty="No rooms yet.">
        {(r) => (
          <RecordLink to={roomAdminPath(r.id)} title={r.title}>
            {ventureName(r.venture)} · {r.state} · {formatInteger(r.documents)} document(s) ·{" "}
            {formatInteger(r.investors)} investor(s) · opened {formatMediumDate(new Date(r.createdAt))}
          </RecordLink>
        )}
      </AdminList>
    </AdminPage>
  );
}
