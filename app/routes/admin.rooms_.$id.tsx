import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { AdminList, AdminSection } from "~/components/admin/admin-list";
import { LocalTime } from "~/components/ui/local-time";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { VISIBILITY_LABELS } from "~/features/documents/library";
import { ReadingChart } from "~/features/engagement/reading-chart";
import { roomCharts } from "~/features/engagement/report.server";
import { AnswerForm } from "~/features/engagement/question-forms";
import { questionsOfRoom } from "~/features/engagement/questions.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { AddDocumentForm, InviteForm, RoomForm } from "~/features/rooms/admin-forms";
import { roomAction } from "~/features/rooms/admin.server";
import { todayUtc } from "~/features/rooms/forms";
import { ROOMS_ADMIN_PATH, roomIdOf } from "~/features/rooms/paths";
import {
  expiryDateOf,
  isOpen,
  libraryDocuments,
  roomById,
  roomDocumentsOf,
  roomInvestors,
} from "~/features/rooms/rooms.server";
import { allVentures } from "~/features/ventures/catalogue.server";
import { getDb } from "~/utils/db.server";
import { formatInteger, formatMediumDate } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const notFound = () => new Response("Not Found", { status: 404, headers: NO_STORE });

/** One room: its settings, documents and investors with their status (docs/rooms.md). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const id = roomIdOf(params.id);
  const db = getDb(env);
  const room = id ? await roomById(db, id) : undefined;
  if (!room) throw notFound();
  const now = Date.now();
  const [documents, library, investors, ventures, questions] = await Promise.all([
    roomDocumentsOf(db, room.id),
    libraryDocuments(db),
    roomInvestors(db, room.id),
    allVentures(db),
    questionsOfRoom(db, room.id),
  ]);
  const held = new Set(documents.map((d) => d.id));
  const charts = await roomCharts(db, room.id, documents);
  return json(
    {
      room: {
        id: room.id,
        title: room.title,
        venture: room.venture,
        nda: room.nda,
        downloads: room.downloads,
        watermark: room.watermark,
        notifyOwner: room.notifyOwner,
        expires: expiryDateOf(room.expiresAt),
        ownerEmail: room.ownerEmail,
        closedAt: room.closedAt,
        state: room.closedAt !== null ? "Closed" : isOpen(room, now) ? "Open" : "Expired",
      },
      documents: documents.map(({ id, title, visibility }) => ({ id, title, visibility })),
      library: library
        .filter((d) => !held.has(d.id))
        .map((d) => ({
          id: d.id,
          title: d.title,
          note: `${VISIBILITY_LABELS[d.visibility]}${d.status === "published" ? "" : ", not published"}`,
        })),
      investors,
      questions,
      charts,
      ventures: ventures.map(({ id, name }) => ({ id, name })),
      today: todayUtc(now),
    },
    { headers: NO_STORE },
  );
}

/** `POST /admin/rooms/<id>` by `intent` (features/rooms/admin.server.ts). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const admin = await requireAdmin(request, context.cloudflare.env);
  const id = roomIdOf(params.id);
  if (!id) throw notFound();
  return roomAction(request, context, admin, id);
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta({
    page: {
      ...pages.roomsAdmin,
      path: data ? `${ROOMS_ADMIN_PATH}/${data.room.id}` : ROOMS_ADMIN_PATH,
      title: data ? `Room: ${data.room.title}` : "Room",
    },
    matches,
  }),
  { name: "robots", content: "noindex" },
];

function Status({ investor }: { investor: ReturnType<typeof useLoaderData<typeof loader>>["investors"][number] }) {
  if (investor.revokedAt !== null)
    return (
      <>
        Revoked <LocalTime ms={investor.revokedAt} />
      </>
    );
  if (investor.firstOpenedAt === null)
    return (
      <>
        Invited <LocalTime ms={investor.invitedAt} />, not opened yet
      </>
    );
  return (
    <>
      Opened <LocalTime ms={investor.firstOpenedAt} />
    </>
  );
}

export default function RoomAdmin() {
  const { room, documents, library, investors, questions, charts, ventures, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string) =>
    actionData && "intent" in actionData && actionData.intent === intent ? actionData.result : undefined;
  const answerResult = (question: number) =>
    actionData && "question" in actionData && actionData.question === question ? actionData.result : undefined;
  const path = `${ROOMS_ADMIN_PATH}/${room.id}`;
  const ventureName = room.venture ? (ventures.find((v) => v.id === room.venture)?.name ?? room.venture) : "The group";
  const closed = room.closedAt !== null;
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-10">
      <p className="text-sm">
        <Link to={ROOMS_ADMIN_PATH} className="text-primary underline-offset-4 hover:underline">
          All rooms
        </Link>
      </p>
      <header className="mt-2">
        <h1 className="wrap-anywhere text-3xl font-bold tracking-tight sm:text-4xl">{room.title}</h1>
        <p className="mt-2 text-muted-foreground">
          {ventureName} · {room.state}
          {room.expires ? ` · last day ${formatMediumDate(new Date(`${room.expires}T12:00:00Z`))}` : ""} ·{" "}
          {room.nda ? "NDA required" : "No NDA"} · {room.downloads ? "Downloads allowed" : "No downloads"} ·{" "}
          {room.watermark ? "Watermarked copies" : "No watermark"}
        </p>
      </header>

      <AdminList
        id="room-investors-heading"
        title="Investors"
        first
        items={investors}
        itemKey={(inv) => inv.invitationId}
        empty="Nobody is invited yet."
        cardClassName="min-w-0 space-y-1"
        footer={
          closed ? null : (
            <div className="mt-4">
              <h3 className="mb-2 font-semibold">Invite an investor</h3>
              <InviteForm action={path} lastResult={resultFor("invite")} />
            </div>
          )
        }
      >
        {(inv) => (
          <>
            <p className="wrap-anywhere font-medium">
              {inv.name}
              {inv.firm ? `, ${inv.firm}` : ""} <span className="text-muted-foreground">({inv.email})</span>
            </p>
            <p className="wrap-anywhere text-sm" data-testid="investor-status">
              <Status investor={inv} />
              {inv.lastSeenAt !== null ? (
                <>
                  {" "}
                  · last seen <LocalTime ms={inv.lastSeenAt} />
                </>
              ) : null}
              {" · "}
              {formatInteger(inv.documentsOpened)} document(s) opened · {formatInteger(inv.downloads)} download(s)
              {inv.ndaAcceptedAt !== null ? (
                <>
                  {" "}
                  · NDA accepted <LocalTime ms={inv.ndaAcceptedAt} />
                </>
              ) : null}
            </p>
            <p className="text-sm">
              <Link
                to={`${path}/investors/${inv.invitationId}`}
                className="text-primary underline-offset-4 hover:underline"
                aria-label={`Reading report: ${inv.name}`}
              >
                Reading report
              </Link>
            </p>
            {inv.revokedAt === null ? (
              <Form method="post" action={path}>
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="invitation" value={inv.invitationId} />
                <Button type="submit" variant="destructive" aria-label={`Revoke ${inv.name}`}>
                  Revoke
                </Button>
              </Form>
            ) : null}
          </>
        )}
      </AdminList>

      <AdminList
        id="room-questions-heading"
        title="Questions"
        items={questions}
        itemKey={(q) => q.id}
        empty="No investor has asked a question yet."
        cardClassName="min-w-0 space-y-2"
        cardTestId="room-question"
      >
        {(q) => (
          <>
            <p className="wrap-anywhere text-sm text-muted-foreground">
              {q.name}
              {q.firm ? `, ${q.firm}` : ""} ({q.email}) · asked <LocalTime ms={q.askedAt} />
              {q.document ? ` · about “${q.document}”` : ""}
              {q.answeredAt !== null ? (
                <>
                  {" "}
                  · answered <LocalTime ms={q.answeredAt} />
                  {q.faq ? " · in the FAQ" : ""}
                </>
              ) : (
                " · not answered yet"
              )}
            </p>
            <p className="wrap-anywhere whitespace-pre-wrap font-medium">{q.question}</p>
            <AnswerForm action={path} question={q.id} answer={q.answer} faq={q.faq} lastResult={answerResult(q.id)} />
          </>
        )}
      </AdminList>

      <AdminList
        id="room-documents-heading"
        title="Documents"
        items={documents}
        itemKey={(d) => d.id}
        empty="The room holds no documents yet."
        cardClassName="flex min-w-0 flex-wrap items-center justify-between gap-3"
        footer={
          <div className="mt-4">
            <AddDocumentForm action={path} documents={library} lastResult={resultFor("add-document")} />
          </div>
        }
      >
        {(d) => (
          <>
            <span className="wrap-anywhere font-medium">
              {d.title} <span className="text-sm text-muted-foreground">({VISIBILITY_LABELS[d.visibility]})</span>
            </span>
            <Form method="post" action={path}>
              <input type="hidden" name="intent" value="remove-document" />
              <input type="hidden" name="document" value={d.id} />
              <Button type="submit" variant="outline" aria-label={`Remove ${d.title}`}>
                Remove
              </Button>
            </Form>
          </>
        )}
      </AdminList>

      <AdminList
        id="room-reading-heading"
        title="Reading"
        counted={false}
        intro={
          <p className="mt-2 text-sm text-muted-foreground">
            Page times of investors who let us record them, for each document&apos;s current version.
          </p>
        }
        items={charts}
        itemKey={(c) => c.documentId}
        empty="The room holds no documents yet."
        cardClassName="min-w-0 space-y-2"
        spacing="wide"
      >
        {(c) => (
          <>
            <h3 className="wrap-anywhere font-medium">{c.title}</h3>
            {c.figures.length === 0 ? (
              <p className="text-sm text-muted-foreground">No pages recorded yet.</p>
            ) : (
              <ReadingChart title={c.title} figures={c.figures} />
            )}
          </>
        )}
      </AdminList>

      <AdminSection id="room-notify-heading" title="Visit e-mails">
        <p className="mt-2 text-sm text-muted-foreground">
          {room.notifyOwner
            ? `On: ${room.ownerEmail} gets one e-mail each time an investor opens the room (visits within 30 minutes are one).`
            : `Off: ${room.ownerEmail} is not told when investors open the room.`}
        </p>
        <Form method="post" action={path} className="mt-3">
          <input type="hidden" name="intent" value="notify" />
          <input type="hidden" name="notify" value={room.notifyOwner ? "off" : "on"} />
          <Button type="submit" variant="outline">
            {room.notifyOwner ? "Turn visit e-mails off" : "Turn visit e-mails on"}
          </Button>
        </Form>
      </AdminSection>

      <AdminSection id="room-settings-heading" title="Settings" headingGap="form">
        <RoomForm
          id="room-settings-form"
          action={path}
          intent="settings"
          ventures={ventures}
          today={today}
          defaultValue={{
            title: room.title,
            venture: room.venture ?? "",
            nda: room.nda,
            downloads: room.downloads ? "on" : undefined,
            watermark: room.watermark ? "on" : undefined,
            expires: room.expires ?? "",
          }}
          lastResult={resultFor("settings")}
          submitLabel="Save settings"
        />
      </AdminSection>

      {closed ? null : (
        <AdminSection id="room-close-heading" title="Close the room">
          <p className="mt-2 text-sm text-muted-foreground">
            Every investor&apos;s next request finds nothing; the room cannot be opened again.
          </p>
          <Form method="post" action={path} className="mt-3">
            <input type="hidden" name="intent" value="close" />
            <Button type="submit" variant="destructive">
              Close room
            </Button>
          </Form>
        </AdminSection>
      )}
    </div>
  );
}
