// A room as the admin opens it and investors enter it (docs/rooms.md), for the route tests of
// what happens in it after (tests/server/room-questions.test.ts, room-updates.test.ts): each step
// through the routes' own loaders and actions, the mails read from the outbox.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { action as createRoom } from "~/routes/admin.rooms";
import { action as changeRoom } from "~/routes/admin.rooms_.$id";
import { action as join } from "~/routes/rooms.$id.join.$token";
import { action as roomAction, loader as roomPage } from "~/routes/rooms.$id._index";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

export const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

export async function clearRooms() {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM rooms"),
    env.DB.prepare("DELETE FROM investors"),
    env.DB.prepare("DELETE FROM audit_log"),
    env.DB.prepare("DELETE FROM mail_outbox"),
  ]);
}

export const count = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

export const deckId = async () =>
  (await env.DB.prepare("SELECT id FROM documents WHERE title = 'FiscalMe Pitch Deck'").first<{ id: string }>())!.id;

/** The outbox's rows of one kind, oldest first. */
export const outbox = async (kind: string) =>
  (
    await env.DB.prepare(
      "SELECT recipient, subject, text_body AS text, headers FROM mail_outbox WHERE kind = ? ORDER BY id",
    )
      .bind(kind)
      .all<{ recipient: string; subject: string; text: string; headers: string }>()
  ).results;

type Handler = (args: any) => unknown;

export const post = (
  handler: Handler,
  path: string,
  form: Record<string, string>,
  cookie?: string,
  params: Record<string, string> = paramsOf(path),
  headers?: Record<string, string>,
) => callRoute(handler, { path, params, form, cookie, headers }).then(asResponse);

export const get = (handler: Handler, path: string, cookie?: string, params = paramsOf(path)) =>
  callRoute(handler, { path, params, cookie }).then(asResponse);

function paramsOf(path: string): Record<string, string> {
  const parts = path.split("?")[0]!.split("/");
  if (path.startsWith("/admin/")) return { id: parts[3]! };
  const [, , id, kind, rest] = parts;
  return kind === "join" || kind === "updates" ? { id: id!, token: rest! } : { id: id! };
}

export const change = (admin: string, id: string, form: Record<string, string>, headers?: Record<string, string>) =>
  post(changeRoom, `/admin/rooms/${id}`, form, admin, { id }, headers);

/** A FiscalMe room with an NDA holding the pitch deck, opened by the admin: its id and the admin's cookie. */
export async function roomWithDeck(): Promise<{ admin: string; id: string }> {
  const admin = await signedIn(ADMIN);
  const res = asResponse(
    await callRoute(createRoom, {
      path: "/admin/rooms",
      form: { title: "FiscalMe seed round", venture: "fiscal-me", nda: "Keep it to yourself." },
      cookie: admin,
    }),
  );
  expect(res.status).toBe(303);
  const id = new URL(res.headers.get("Location")!, ORIGIN).pathname.split("/").pop()!;
  expect((await change(admin, id, { intent: "add-document", document: await deckId() })).status).toBe(303);
  return { admin, id };
}

/** Invites `email`; the personal link from the invitation e-mail. */
export async function invite(admin: string, id: string, email: string, name: string, firm: string) {
  expect((await change(admin, id, { intent: "invite", email, name, firm })).status).toBe(303);
  const mail = await env.DB.prepare(
    "SELECT text_body AS text FROM mail_outbox WHERE recipient = ? AND kind = 'room-invitation' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ text: string }>();
  return /https:\/\/afx\.test(\/rooms\/[^\s]+)/.exec(mail!.text)![1]!;
}

/** Through the link, the code and the NDA: the room session's cookie. */
export async function enter(id: string, link: string, email: string, name: string): Promise<string> {
  expect((await post(join, link, { intent: "address", email })).status).toBe(303);
  const mail = await env.DB.prepare(
    "SELECT text_body AS text FROM mail_outbox WHERE recipient = ? AND kind = 'room-code' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ text: string }>();
  const code = /\b\d{6}\b/.exec(mail!.text)![0];
  const res = await post(join, link, { intent: "code", code });
  expect(res.status).toBe(303);
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  expect((await post(roomAction, `/rooms/${id}`, { intent: "accept", accept: "on", name }, cookie)).status).toBe(303);
  return cookie;
}

/** The room's page data, as the investor of `cookie` gets it. */
export async function roomData<T>(id: string, cookie: string): Promise<T> {
  const res = await get(roomPage, `/rooms/${id}`, cookie);
  expect(res.status).toBe(200);
  return res.json<T>();
}

export const invitationOf = async (email: string) =>
  (await env.DB.prepare(
    "SELECT ri.id FROM room_invitations ri JOIN investors i ON i.id = ri.investor_id WHERE i.email = ?",
  )
    .bind(email)
    .first<{ id: number }>())!.id;
