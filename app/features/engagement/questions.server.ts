/**
 * Questions in a room (docs/decisions/119): an investor asks (optionally about one of the room's
 * documents), the owner is mailed; the owner's answer is mailed to the asker and shown in their
 * room, and with `faq` joins the room's FAQ, which every investor of the room sees without who asked.
 */
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { documents, investors, roomDocuments, roomInvitations, roomQuestions, type Room } from "~/db/schema";
import { auditStatement } from "~/features/admin/audit.server";
import { announceMail, queuedIds, queueMail } from "~/features/mail/outbox.server";
import { batch, type Db } from "~/utils/db.server";
import { answerMail, questionMail } from "./mails.server";

export { ANSWER_MAX, answerSchema, QUESTION_MAX, questionSchema } from "./questions";

/** Whether a document is one of the room's (a question may be about it). */
export async function roomHoldsDocument(db: Db, roomId: string, documentId: string) {
  const [row] = await db
    .select({ title: documents.title })
    .from(roomDocuments)
    .innerJoin(documents, eq(documents.id, roomDocuments.documentId))
    .where(and(eq(roomDocuments.roomId, roomId), eq(roomDocuments.documentId, documentId)));
  return row ?? null;
}

/** Stores the question and queues the owner's mail, in one batch. */
export async function askQuestion(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  input: {
    room: Pick<Room, "id" | "title" | "ownerEmail">;
    invitationId: number;
    asker: { name: string; firm: string; email: string };
    question: string;
    document: { id: string; title: string } | null;
    adminUrl: string;
  },
  now = Date.now(),
) {
  const [, mail] = await batch(db, [
    db.insert(roomQuestions).values({
      roomId: input.room.id,
      invitationId: input.invitationId,
      documentId: input.document?.id ?? null,
      question: input.question,
      askedAt: now,
    }),
    queueMail(
      db,
      questionMail({
        to: input.room.ownerEmail,
        roomTitle: input.room.title,
        asker: input.asker,
        document: input.document?.title ?? null,
        question: input.question,
        adminUrl: input.adminUrl,
      }),
      now,
    ),
  ]);
  announceMail(env, ctx, queuedIds(mail));
}

export interface AdminQuestion {
  id: number;
  question: string;
  askedAt: number;
  answer: string | null;
  answeredAt: number | null;
  faq: boolean;
  document: string | null;
  name: string;
  firm: string;
  email: string;
}

/** The room's questions for its admin page, newest first, with who asked. */
export async function questionsOfRoom(db: Db, roomId: string): Promise<AdminQuestion[]> {
  return db
    .select({
      id: roomQuestions.id,
      question: roomQuestions.question,
      askedAt: roomQuestions.askedAt,
      answer: roomQuestions.answer,
      answeredAt: roomQuestions.answeredAt,
      faq: roomQuestions.faq,
      document: documents.title,
      name: investors.name,
      firm: investors.firm,
      email: investors.email,
    })
    .from(roomQuestions)
    .innerJoin(roomInvitations, eq(roomInvitations.id, roomQuestions.invitationId))
    .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
    .leftJoin(documents, eq(documents.id, roomQuestions.documentId))
    .where(eq(roomQuestions.roomId, roomId))
    .orderBy(desc(roomQuestions.askedAt), desc(roomQuestions.id));
}

/** One investor's own questions in a room, with the answers so far. */
export async function questionsOfInvitation(db: Db, invitationId: number) {
  return db
    .select({
      id: roomQuestions.id,
      question: roomQuestions.question,
      askedAt: roomQuestions.askedAt,
      answer: roomQuestions.answer,
      answeredAt: roomQuestions.answeredAt,
      document: documents.title,
    })
    .from(roomQuestions)
    .leftJoin(documents, eq(documents.id, roomQuestions.documentId))
    .where(eq(roomQuestions.invitationId, invitationId))
    .orderBy(desc(roomQuestions.askedAt), desc(roomQuestions.id));
}

/** The room's FAQ: answered questions marked `faq`, without who asked (no name, address or firm). */
export async function faqOfRoom(db: Db, roomId: string) {
  return db
    .select({ id: roomQuestions.id, question: roomQuestions.question, answer: roomQuestions.answer })
    .from(roomQuestions)
    .where(and(eq(roomQuestions.roomId, roomId), eq(roomQuestions.faq, true), isNotNull(roomQuestions.answer)))
    .orderBy(desc(roomQuestions.answeredAt));
}

/**
 * The owner's answer: stored, mailed to the asker and audited in one batch. False when the
 * question is not this room's.
 */
export async function answerQuestion(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  input: {
    room: Pick<Room, "id" | "title">;
    questionId: number;
    answer: string;
    faq: boolean;
    admin: string;
    roomUrl: string;
  },
  now = Date.now(),
): Promise<boolean> {
  const [asked] = await db
    .select({ question: roomQuestions.question, email: investors.email })
    .from(roomQuestions)
    .innerJoin(roomInvitations, eq(roomInvitations.id, roomQuestions.invitationId))
    .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
    .where(and(eq(roomQuestions.id, input.questionId), eq(roomQuestions.roomId, input.room.id)));
  if (!asked) return false;
  const [, , mail] = await batch(db, [
    db
      .update(roomQuestions)
      .set({ answer: input.answer, answeredAt: now, answeredBy: input.admin, faq: input.faq })
      .where(eq(roomQuestions.id, input.questionId)),
    auditStatement(
      db,
      {
        actor: input.admin,
        action: "room.answer",
        target: `room ${input.room.id}`,
        detail: `question #${input.questionId}${input.faq ? ", in the FAQ" : ""}`,
      },
      now,
    ),
    queueMail(
      db,
      answerMail({
        to: asked.email,
        roomTitle: input.room.title,
        question: asked.question,
        answer: input.answer,
        roomUrl: input.roomUrl,
      }),
      now,
    ),
  ]);
  announceMail(env, ctx, queuedIds(mail));
  return true;
}

/** How many questions of a room await an answer (the room's admin page says so). */
export const unanswered = (db: Db, roomId: string) =>
  db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(roomQuestions)
    .where(and(eq(roomQuestions.roomId, roomId), sql`${roomQuestions.answer} IS NULL`));
