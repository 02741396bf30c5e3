import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { investorAccess } from "~/features/engagement/access.server";
import { readingPath, recordPath } from "~/features/engagement/paths";
import { NO_STORE } from "~/utils/no-store";
import { preferencesOf } from "~/features/engagement/consent.server";
import { PdfViewer } from "~/features/engagement/pdf-viewer";
import { pageCountOf, startReading } from "~/features/engagement/readings.server";
import { NOT_FOUND } from "~/features/rooms/access.server";
import { roomFilePath, roomPath } from "~/features/rooms/paths";
import { roomDocumentsOf } from "~/features/rooms/rooms.server";
import { getDb } from "~/utils/db.server";

/**
 * GET /rooms/<id>/read/<document>: the room's viewer for one of its documents (docs/decisions/116).
 * With JavaScript, PDF.js shows the copy a page at a time; for an investor who consented, a reading
 * begins here and the viewer reports its page times to /rooms/<id>/reading. Without JavaScript the
 * page offers the copy itself (the browser's own viewer), and no page times.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env);
  const access = await investorAccess(request, env, db, params.id);
  const doc = (await roomDocumentsOf(db, access.room.id)).find((d) => d.id === params.document);
  if (!doc) throw NOT_FOUND();
  const { analytics } = await preferencesOf(db, access.invitation.id);
  let reading: { url: string; id: string } | null = null;
  if (analytics) {
    const pageCount = await pageCountOf(env, db, { id: doc.versionId, objectKey: doc.objectKey });
    const id = pageCount
      ? await startReading(db, {
          invitationId: access.invitation.id,
          documentId: doc.id,
          versionId: doc.versionId,
          pageCount,
        })
      : null;
    if (id) reading = { url: readingPath(access.room.id), id };
  }
  return json(
    {
      room: { id: access.room.id, title: access.room.title },
      document: { id: doc.id, title: doc.title, src: roomFilePath(access.room.id, doc.id) },
      reading,
      analytics,
    },
    { headers: NO_STORE },
  );
}

export const headers = () => NO_STORE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.document.title} | ${data.room.title}` : "Room" },
  { name: "robots", content: "noindex" },
];

export default function RoomViewer() {
  const { room, document, reading, analytics } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl space-y-4 px-4 pb-16 pt-10">
      <header>
        <h1 className="wrap-anywhere text-3xl font-bold tracking-tight">{document.title}</h1>
        <p className="wrap-anywhere mt-2 text-muted-foreground">In the room “{room.title}”.</p>
      </header>
      <p className="text-sm">
        <Link to={roomPath(room.id)} className="link">
          Back to the room
        </Link>
      </p>
      <PdfViewer src={document.src} title={document.title} reading={reading} />
      <p className="text-sm text-muted-foreground">
        {analytics
          ? "You let AFX Holding Group see which pages you read and for how long: this viewer reports the seconds each page is shown. "
          : "No page times are recorded: you did not agree to it. "}
        <Link to={recordPath(room.id)} className="link">
          What we recorded about you
        </Link>
      </p>
    </div>
  );
}
