import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { NOT_FOUND, recordPresence } from "~/features/rooms/access.server";
import { copyResponse } from "~/features/rooms/copy.server";
import { roomAccess } from "~/features/rooms/room-access.server";
import { roomDocumentsOf } from "~/features/rooms/rooms.server";
import { getDb } from "~/utils/db.server";

/**
 * `GET /rooms/<id>/files/<document>`: the investor's copy of one of the room's documents
 * (features/rooms/copy.server.ts), `inline`; `?download` as a file where the room allows it.
 * Anyone else, and a document the room does not hold, gets the unknown page's answer.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  const db = getDb(env);
  const access = await roomAccess(request, env, db, params.id);
  const doc = (await roomDocumentsOf(db, access.room.id)).find((d) => d.id === params.document);
  if (!doc) throw NOT_FOUND();
  const download = access.room.downloads && new URL(request.url).searchParams.has("download");
  const [response] = await Promise.all([
    copyResponse(env, ctx, db, access, doc, { download }),
    recordPresence(env, ctx, db, access, { opened: false }),
  ]);
  if (!response) throw NOT_FOUND();
  return response;
}
