/**
 * The admin's room actions (docs/rooms.md), for /admin/rooms and /admin/rooms/<id>, whose routes
 * first refuse another site's POST and anyone but an admin (so they store nothing). Each form is
 * validated by its schema through conform: bad input answers 400 with the errors and the typed
 * values, and stores nothing. Every write is audited in its batch (rooms.server.ts).
 */
import { parseWithZod } from "@conform-to/zod";
import { json, type AppLoadContext } from "@remix-run/cloudflare";
import type { Admin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { announceMail } from "~/features/mail/outbox.server";
import { ventureIds } from "~/features/ventures/catalogue.server";
import { withKnownVenture } from "~/features/ventures/venture-field";
import { getConfig } from "~/utils/config.server";
import { NO_STORE } from "~/utils/no-store";
import { getDb } from "~/utils/db.server";
import { answerQuestion, answerSchema } from "~/features/engagement/questions.server";
import { redirectWithToast } from "~/utils/flash.server";
import { ownerName } from "./access.server";
import { documentSchema, inviteSchema, ROOM_LIMITS, roomSchema } from "./forms";
import { invitationToken, newInvitationHandle } from "./invitation-link.server";
import { invitationMail } from "./mails.server";
import { joinPath, roomAdminPath, roomPath } from "./paths";
import {
  addRoomDocument,
  closeRoom,
  createRoom,
  inviteInvestor,
  removeRoomDocument,
  revokeInvitation,
  roomById,
  setNotifyOwner,
  updateRoom,
} from "./rooms.server";

const MAX_BODY = (ROOM_LIMITS.title + ROOM_LIMITS.nda) * 3 + 8192;

/** The forms of the room's page, by their `intent`. */
export const ROOM_INTENTS = [
  "settings",
  "notify",
  "add-document",
  "remove-document",
  "invite",
  "revoke",
  "close",
  "answer",
] as const;
export type RoomIntent = (typeof ROOM_INTENTS)[number];

const badRequest = (message: string) => new Response(message, { status: 400, headers: NO_STORE });
const notFound = () => new Response("Not Found", { status: 404, headers: NO_STORE });

/** `POST /admin/rooms`: opens a room; answers with its page. */
export async function createRoomAction(request: Request, context: AppLoadContext, admin: Admin) {
  const { env } = context.cloudflare;
  const db = getDb(env);
  const form = await readForm(request, { maxBytes: MAX_BODY });
  const submission = parseWithZod(form, { schema: withKnownVenture(roomSchema(), await ventureIds(db)) });
  if (submission.status !== "success")
    return json({ intent: "create" as const, result: submission.reply() }, { status: 400, headers: NO_STORE });
  const id = await createRoom(db, submission.value, admin.email);
  return redirectWithToast(
    env,
    request,
    roomAdminPath(id),
    { title: "Room opened" },
    { status: 303, headers: NO_STORE },
  );
}

/** `POST /admin/rooms/<id>` by `intent`. */
export async function roomAction(request: Request, context: AppLoadContext, admin: Admin, id: string) {
  const { env, ctx } = context.cloudflare;
  const db = getDb(env);
  const room = await roomById(db, id);
  if (!room) throw notFound();
  const form = await readForm(request, { maxBytes: MAX_BODY });
  const intent = String(form.get("intent") ?? "");
  const done = (title: string, description?: string) =>
    redirectWithToast(
      env,
      request,
      roomAdminPath(id),
      { title, ...(description ? { description } : {}) },
      { status: 303, headers: NO_STORE },
    );

  switch (intent) {
    case "settings": {
      const submission = parseWithZod(form, { schema: withKnownVenture(roomSchema(), await ventureIds(db)) });
      if (submission.status !== "success")
        return json({ intent, result: submission.reply() }, { status: 400, headers: NO_STORE });
      await updateRoom(db, id, submission.value, admin.email);
      return done("Room saved");
    }
    case "notify": {
      const on = form.get("notify") === "on";
      await setNotifyOwner(db, id, on, admin.email);
      return done(on ? "Visit e-mails on" : "Visit e-mails off");
    }
    case "add-document": {
      const submission = parseWithZod(form, { schema: documentSchema });
      if (submission.status !== "success")
        return json({ intent, result: submission.reply() }, { status: 400, headers: NO_STORE });
      const added = await addRoomDocument(db, id, submission.value.document, admin.email);
      if (added === "unknown")
        return json(
          {
            intent,
            result: submission.reply({ fieldErrors: { document: ["Please choose one of the library's documents."] } }),
          },
          { status: 400, headers: NO_STORE },
        );
      return done(added === "added" ? "Document added" : "The room already holds this document");
    }
    case "remove-document": {
      const document = String(form.get("document") ?? "");
      if (!(await removeRoomDocument(db, id, document, admin.email))) throw notFound();
      return done("Document removed");
    }
    case "invite": {
      if (room.closedAt !== null) throw badRequest("This room is closed: nobody can be invited.");
      const submission = parseWithZod(form, { schema: inviteSchema });
      if (submission.status !== "success")
        return json({ intent, result: submission.reply() }, { status: 400, headers: NO_STORE });
      const person = submission.value;
      const owner = await ownerName(db, room);
      const { siteUrl } = getConfig(env);
      const handle = newInvitationHandle();
      const link = new URL(joinPath(id, await invitationToken(env, handle)), siteUrl).href;
      const mail = invitationMail({ to: person.email, name: person.name, roomTitle: room.title, owner, link });
      const { queued } = await inviteInvestor(db, id, person, admin.email, { handle, mail });
      announceMail(env, ctx, queued);
      return done("Investor invited", `An invitation is on its way to ${person.email}.`);
    }
    case "revoke": {
      const invitation = Number(form.get("invitation"));
      if (!Number.isSafeInteger(invitation) || invitation < 1) throw badRequest("Bad request: expected an invitation.");
      if (!(await revokeInvitation(db, id, invitation, admin.email))) throw notFound();
      return done("Invitation revoked", "The room and its documents are closed to this investor.");
    }
    case "close": {
      await closeRoom(db, id, admin.email);
      return done("Room closed", "No investor can open it any more.");
    }
    case "answer": {
      // The answer mailed to the asker and shown in their room; with `faq`, in the room's FAQ (decision 119).
      const submission = parseWithZod(form, { schema: answerSchema });
      const question = Number(form.get("question"));
      if (submission.status !== "success")
        return json({ intent, question, result: submission.reply() }, { status: 400, headers: NO_STORE });
      const answered = await answerQuestion(env, ctx, db, {
        room,
        questionId: submission.value.question,
        answer: submission.value.answer,
        faq: submission.value.faq,
        admin: admin.email,
        roomUrl: new URL(roomPath(id), getConfig(env).siteUrl).href,
      });
      if (!answered) throw notFound();
      return done(
        "Answer sent",
        submission.value.faq ? "Mailed to the investor who asked, and added to the room's FAQ." : undefined,
      );
    }
    default:
      throw badRequest("Bad request: unknown intent.");
  }
}
