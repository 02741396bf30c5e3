// Investor rooms (docs/rooms.md): the admin's pages and forms, the investor's way in (personal
// link, address, one-time code, NDA), the room, its copies and the owner's visit e-mail, each
// loader and action called directly without a build. The no-JS walk in a browser and the copy's
// text read by PDF.js are tests/e2e/rooms.test.ts's.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as createRoom, loader as roomsAdmin } from "~/routes/admin.rooms";
import { action as changeRoom, loader as roomAdmin } from "~/routes/admin.rooms_.$id";
import { action as join, loader as joinPage } from "~/routes/rooms.$id.join.$token";
import { action as roomAction, loader as roomPage } from "~/routes/rooms.$id._index";
import { loader as roomFile } from "~/routes/rooms.$id.files.$document";
import { loader as documentsPage } from "~/routes/documents._index";
import { loader as viewerPage } from "~/routes/rooms.$id.read.$document";
import { action as report } from "~/routes/rooms.$id.reading";
import { action as recordAction, loader as recordPage } from "~/routes/rooms.$id.record";
import { CODE_MAX_ATTEMPTS } from "~/features/rooms/access.server";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";
import { clearRooms, count, CROSS_SITE } from "./room-fixtures";

const NDA = "**Confidential.** You keep what you read here to yourself.";

beforeEach(clearRooms);

const deckId = async () =>
  (await env.DB.prepare("SELECT id FROM documents WHERE title = 'FiscalMe Pitch Deck'").first<{ id: string }>())!.id;

const roomForm = (over: Record<string, string | undefined> = {}) =>
  Object.fromEntries(
    Object.entries({ title: "FiscalMe seed round", venture: "fiscal-me", nda: NDA, watermark: "on", ...over }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );

async function openRoom(admin: string, over: Record<string, string | undefined> = {}): Promise<string> {
  const res = asResponse(await callRoute(createRoom, { path: "/admin/rooms", form: roomForm(over), cookie: admin }));
  expect(res.status, await res.clone().text()).toBe(303);
  const location = new URL(res.headers.get("Location")!, ORIGIN).pathname;
  expect(location).toMatch(/^\/admin\/rooms\/[A-Za-z0-9_-]{16}$/);
  return location.split("/").pop()!;
}

const change = (admin: string, id: string, form: Record<string, string>, headers?: Record<string, string>) =>
  callRoute(changeRoom, { path: `/admin/rooms/${id}`, params: { id }, form, cookie: admin, headers }).then(asResponse);

/** Invites `email` and answers the personal link's token, read from the invitation e-mail. */
async function invite(admin: string, id: string, email: string, name = "Ada Investor", firm = "Northwind Capital") {
  const res = await change(admin, id, { intent: "invite", email, name, firm });
  expect(res.status, await res.clone().text()).toBe(303);
  const mail = await env.DB.prepare(
    "SELECT text_body AS text FROM mail_outbox WHERE recipient = ? AND kind = 'room-invitation' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ text: string }>();
  const link = /https:\/\/afx\.test(\/rooms\/[^\s]+)/.exec(mail!.text)![1]!;
  expect(link).toMatch(new RegExp(`^/rooms/${id}/join/[A-Za-z0-9_-]{32}[.][A-Za-z0-9_-]{8}[.][A-Za-z0-9_-]{43}$`));
  return link;
}

const codesTo = async (email: string) =>
  (
    await env.DB.prepare(
      "SELECT text_body AS text FROM mail_outbox WHERE recipient = ? AND kind = 'room-code' ORDER BY id",
    )
      .bind(email)
      .all<{ text: string }>()
  ).results.map((r) => {
    const digits = r.text.match(/\b\d{6}\b/g) ?? [];
    expect(digits, "one six-digit number in the code mail").toHaveLength(1);
    return digits[0]!;
  });

type Handler = (args: any) => unknown;

const post = (handler: Handler, path: string, form: Record<string, string>, cookie?: string, params = paramsOf(path)) =>
  callRoute(handler, { path, params, form, cookie }).then(asResponse);

function paramsOf(path: string): Record<string, string> {
  if (path.startsWith("/admin/rooms/")) return { id: path.split("/")[3]! };
  const [, , id, kind, rest] = path.split("?")[0]!.split("/");
  return kind === "join" ? { id: id!, token: rest! } : kind === "files" ? { id: id!, document: rest! } : { id: id! };
}

/** From the link to the room: the address, the code; the room session's cookie. */
async function enter(link: string, email: string): Promise<string> {
  expect((await post(join, link, { intent: "address", email })).status).toBe(303);
  const [code] = (await codesTo(email)).slice(-1);
  const res = await post(join, link, { intent: "code", code: code! });
  expect(res.status, await res.clone().text()).toBe(303);
  const cookie = res.headers.get("Set-Cookie")!;
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  expect(cookie).toMatch(/Path=\/rooms\//);
  return cookie.split(";")[0]!;
}

const get = (handler: Handler, path: string, cookie?: string) =>
  callRoute(handler, { path, params: paramsOf(path), cookie }).then(asResponse);

describe("/admin/rooms", () => {
  it("is the not-found page for a visitor and a member; an admin gets the form's data", async () => {
    expect((await get(roomsAdmin, "/admin/rooms")).status).toBe(404);
    expect((await get(roomsAdmin, "/admin/rooms", await signedIn("member@example.com"))).status).toBe(404);
    const res = await get(roomsAdmin, "/admin/rooms", await signedIn(ADMIN));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await res.json<{ ventures: { id: string }[] }>();
    expect(data.ventures.map((v) => v.id)).toContain("fiscal-me");
  });

  it("opens a room and audits it; a member's and a cross-site POST create nothing", async () => {
    const member = await signedIn("member@example.com");
    expect(
      (await callRoute(createRoom, { path: "/admin/rooms", form: roomForm(), cookie: member }).then(asResponse)).status,
    ).toBe(404);
    const admin = await signedIn(ADMIN);
    const cross = await callRoute(createRoom, {
      path: "/admin/rooms",
      form: roomForm(),
      cookie: admin,
      headers: CROSS_SITE,
    });
    expect(asResponse(cross).status).toBe(403);
    expect(await count("rooms")).toBe(0);
    const id = await openRoom(admin);
    const row = await env.DB.prepare("SELECT * FROM rooms WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      title: "FiscalMe seed round",
      venture: "fiscal-me",
      nda: NDA,
      downloads: 0,
      watermark: 1,
      owner_email: ADMIN,
    });
    expect(await env.DB.prepare("SELECT action FROM audit_log").first()).toEqual({ action: "room.create" });
  });

  it.each([
    ["an empty title", { title: "  " }, "title"],
    ["an unknown venture", { venture: "no-such-venture" }, "venture"],
    ["an expiry in the past", { expires: "2020-01-01" }, "expires"],
  ])("refuses %s with a 400, the typed fields kept, nothing stored", async (_, over, field) => {
    const admin = await signedIn(ADMIN);
    const res = asResponse(await callRoute(createRoom, { path: "/admin/rooms", form: roomForm(over), cookie: admin }));
    expect(res.status).toBe(400);
    const { result } = await res.json<{
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    }>();
    expect(result.error[field]?.length).toBeGreaterThan(0);
    expect(result.initialValue.nda).toBe(NDA);
    expect(await count("rooms")).toBe(0);
  });
});

describe("/admin/rooms/<id>", () => {
  it("adds the library's document, refuses an unknown one, removes it; invitations need a real address", async () => {
    const admin = await signedIn(ADMIN);
    const id = await openRoom(admin);
    expect((await change(admin, id, { intent: "add-document", document: "nope" })).status).toBe(400);
    expect((await change(admin, id, { intent: "add-document", document: await deckId() })).status).toBe(303);
    expect(await count("room_documents")).toBe(1);
    const bad = await change(admin, id, { intent: "invite", email: "not-an-address", name: "X", firm: "Y" });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ result: { initialValue: Record<string, string> } }>()).result.initialValue.firm).toBe("Y");
    expect(await count("investors")).toBe(0);
    const page = await get(roomAdmin, `/admin/rooms/${id}`, admin);
    const data = await page.json<{ documents: { title: string }[]; library: { id: string }[] }>();
    expect(data.documents.map((d) => d.title)).toEqual(["FiscalMe Pitch Deck"]);
    expect(data.library.map((d) => d.id)).not.toContain(await deckId());
    expect((await change(admin, id, { intent: "remove-document", document: await deckId() })).status).toBe(303);
    expect(await count("room_documents")).toBe(0);
    // A member's form changes nothing.
    const member = await signedIn("member@example.com");
    expect((await change(member, id, { intent: "add-document", document: await deckId() })).status).toBe(404);
    expect((await change(admin, id, { intent: "add-document", document: await deckId() }, CROSS_SITE)).status).toBe(
      403,
    );
    expect(await count("room_documents")).toBe(0);
    expect((await get(roomAdmin, "/admin/rooms/AAAAAAAAAAAAAAAA", admin)).status).toBe(404);
  });
});

describe("the investor's way in", () => {
  it("walks the link, code and NDA to the room and its watermarked copy; the owner hears once per visit", async () => {
    const admin = await signedIn(ADMIN);
    const id = await openRoom(admin);
    await change(admin, id, { intent: "add-document", document: await deckId() });
    const link = await invite(admin, id, "ada@example.com");
    await invite(admin, id, "bo@example.com", "Bo Banker", "Southwind");

    expect((await get(joinPage, link)).status).toBe(200);
    // Another address gets the same answer and no mail.
    const other = await post(join, link, { intent: "address", email: "stranger@example.com" });
    expect(other.status).toBe(303);
    const invited = await post(join, link, { intent: "address", email: "bo@example.com" });
    expect(invited.headers.get("Location")).toBe(other.headers.get("Location"));
    expect(await count("room_codes")).toBe(0);
    expect(await codesTo("stranger@example.com")).toEqual([]);
    // A code that is not six digits: 400, nothing used.
    expect((await post(join, link, { intent: "code", code: "12345" })).status).toBe(400);

    const cookie = await enter(link, "ada@example.com");
    // The NDA first; the room records nothing of a visit yet.
    const nda = await get(roomPage, `/rooms/${id}`, cookie);
    expect(((await nda.json()) as { step: string }).step).toBe("nda");
    expect((await post(roomAction, `/rooms/${id}`, { intent: "accept", name: "Ada Investor" }, cookie)).status).toBe(
      400,
    );
    expect(await count("room_nda_acceptances")).toBe(0);
    expect(
      (await post(roomAction, `/rooms/${id}`, { intent: "accept", accept: "on", name: "Ada Investor" }, cookie)).status,
    ).toBe(303);
    expect(await env.DB.prepare("SELECT name, nda_text FROM room_nda_acceptances").first()).toEqual({
      name: "Ada Investor",
      nda_text: NDA,
    });

    const room = await get(roomPage, `/rooms/${id}`, cookie);
    expect(room.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await room.json<{
      step: string;
      documents: { title: string; href: string; download: string | null }[];
    }>();
    expect(data.step).toBe("room");
    expect(data.documents).toEqual([expect.objectContaining({ title: "FiscalMe Pitch Deck", download: null })]);
    // A second look within 30 minutes is the same visit: one owner mail, naming the investor and the venture.
    await get(roomPage, `/rooms/${id}`, cookie);
    const owner = await env.DB.prepare(
      "SELECT recipient, subject, text_body AS text FROM mail_outbox WHERE kind = 'room-visit'",
    ).all<{ recipient: string; subject: string; text: string }>();
    expect(owner.results).toHaveLength(1);
    expect(owner.results[0]).toMatchObject({ recipient: ADMIN });
    expect(owner.results[0]!.text).toContain("Ada Investor (Northwind Capital)");
    expect(owner.results[0]!.text).toContain("FiscalMe");
    expect(owner.results[0]!.text).toContain(`https://afx.test/admin/rooms/${id}`);

    const file = await get(roomFile, data.documents[0]!.href, cookie);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/pdf");
    expect(file.headers.get("Cache-Control")).toBe("private, no-store");
    expect(file.headers.get("Content-Disposition")).toMatch(/^inline;/);
    expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    // `?download` in a room without downloads is still inline.
    const asked = await get(roomFile, `${data.documents[0]!.href}?download`, cookie);
    expect(asked.headers.get("Content-Disposition")).toMatch(/^inline;/);
    await asked.arrayBuffer();
    expect(await count("room_copies")).toBe(1);

    const report = await (
      await get(roomAdmin, `/admin/rooms/${id}`, admin)
    ).json<{ investors: { email: string; firstOpenedAt: number | null; documentsOpened: number }[] }>();
    const ada = report.investors.find((i) => i.email === "ada@example.com")!;
    expect(ada.firstOpenedAt).not.toBeNull();
    expect(ada.documentsOpened).toBe(1);
    expect(report.investors.find((i) => i.email === "bo@example.com")!.firstOpenedAt).toBeNull();

    // Revoke: at once, the room and its document answer as unknown pages.
    const invitation = (await env.DB.prepare(
      "SELECT i.id FROM room_invitations i JOIN investors v ON v.id = i.investor_id WHERE v.email = 'ada@example.com'",
    ).first<{ id: number }>())!.id;
    expect((await change(admin, id, { intent: "revoke", invitation: String(invitation) })).status).toBe(303);
    expect((await get(roomPage, `/rooms/${id}`, cookie)).status).toBe(404);
    expect((await get(roomFile, data.documents[0]!.href, cookie)).status).toBe(404);
    expect((await get(joinPage, link)).status).toBe(404);
  });

  it("voids a code after five wrong tries; another investor's code still works", async () => {
    const admin = await signedIn(ADMIN);
    const id = await openRoom(admin, { nda: "" });
    const ada = await invite(admin, id, "ada@example.com");
    const bo = await invite(admin, id, "bo@example.com", "Bo", "");
    await post(join, ada, { intent: "address", email: "ada@example.com" });
    await post(join, bo, { intent: "address", email: "bo@example.com" });
    const [right] = await codesTo("ada@example.com");
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < CODE_MAX_ATTEMPTS + 1; i++)
      expect((await post(join, ada, { intent: "code", code: wrong })).status).toBe(400);
    const voided = await post(join, ada, { intent: "code", code: right! });
    expect(voided.status).toBe(400);
    expect(JSON.stringify(await voided.json())).toContain("no longer works");
    // A new code only after 30 s: asking again at once sends none.
    await post(join, ada, { intent: "address", email: "ada@example.com" });
    expect(await codesTo("ada@example.com")).toHaveLength(1);
    const [boCode] = await codesTo("bo@example.com");
    const res = await post(join, bo, { intent: "code", code: boCode! });
    expect(res.status).toBe(303);
    // No NDA: straight to the room.
    expect(
      (
        (await (await get(roomPage, `/rooms/${id}`, res.headers.get("Set-Cookie")!.split(";")[0])).json()) as {
          step: string;
        }
      ).step,
    ).toBe("room");
  });

  it("answers an unknown room, a closed one, a wrong link and no session as unknown pages", async () => {
    expect((await get(roomPage, "/rooms/AAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await get(joinPage, `/rooms/AAAAAAAAAAAAAAAA/join/${"a".repeat(43)}`)).status).toBe(404);
    const admin = await signedIn(ADMIN);
    const id = await openRoom(admin, { nda: "" });
    const link = await invite(admin, id, "ada@example.com");
    expect((await get(joinPage, `/rooms/${id}/join/${"a".repeat(43)}`)).status).toBe(404);
    // A link whose signature was tampered with.
    expect((await get(joinPage, `${link.slice(0, -3)}${link.endsWith("AAA") ? "BBB" : "AAA"}`)).status).toBe(404);
    expect((await get(roomPage, `/rooms/${id}`)).status).toBe(404);
    const cookie = await enter(link, "ada@example.com");
    expect((await get(roomPage, `/rooms/${id}`, cookie)).status).toBe(200);
    expect((await change(admin, id, { intent: "close" })).status).toBe(303);
    expect((await get(roomPage, `/rooms/${id}`, cookie)).status).toBe(404);
    expect((await get(joinPage, link)).status).toBe(404);
  });

  it("sends the owner nothing for a visit by one of the group's admins, or with the switch off", async () => {
    const admin = await signedIn(ADMIN);
    const id = await openRoom(admin, { nda: "" });
    const own = await invite(admin, id, ADMIN, "Our Admin", "AFX");
    await get(roomPage, `/rooms/${id}`, await enter(own, ADMIN));
    expect((await change(admin, id, { intent: "notify", notify: "off" })).status).toBe(303);
    const link = await invite(admin, id, "ada@example.com");
    await get(roomPage, `/rooms/${id}`, await enter(link, "ada@example.com"));
    expect(await count("room_visits")).toBe(2);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'room-visit'").first()).toEqual({
      n: 0,
    });
  });
});

describe("a rooms-only document", () => {
  it("is listed for nobody", async () => {
    const deck = await deckId();
    await env.DB.prepare("UPDATE documents SET visibility = 'rooms' WHERE id = ?").bind(deck).run();
    try {
      for (const cookie of [undefined, await signedIn("member@example.com")]) {
        const res = asResponse(await callRoute(documentsPage, { path: "/documents", cookie }));
        expect(JSON.stringify(await res.json())).not.toContain("FiscalMe Pitch Deck");
      }
    } finally {
      await env.DB.prepare("UPDATE documents SET visibility = 'public' WHERE id = ?").bind(deck).run();
    }
  });
});

describe("what an investor reads, with their consent (docs/decisions/116, 117)", () => {
  /** Into a room with the deck, the NDA accepted with or without the `analytics` box. */
  async function reader(email: string, analytics: boolean) {
    const admin = await signedIn(ADMIN);
    const id = await openRoom(admin);
    await change(admin, id, { intent: "add-document", document: await deckId() });
    const cookie = await enter(await invite(admin, id, email), email);
    const form: Record<string, string> = { intent: "accept", accept: "on", name: "Ada Investor" };
    if (analytics) form.analytics = "on";
    expect((await post(roomAction, `/rooms/${id}`, form, cookie)).status).toBe(303);
    return { id, cookie, viewer: `/rooms/${id}/read/${await deckId()}` };
  }
  const viewer = (path: string, cookie?: string) =>
    callRoute(viewerPage, { path, params: { id: path.split("/")[2]!, document: path.split("/")[4]! }, cookie }).then(
      asResponse,
    );
  const beacon = (id: string, cookie: string, json: unknown) =>
    callRoute(report, { path: `/rooms/${id}/reading`, params: { id }, json, cookie }).then(asResponse);

  it("the entry form's analytics box is unticked; a consenting reader's plausible reports are stored", async () => {
    const { id, cookie, viewer: path } = await reader("ada@example.com", true);
    const res = await viewer(path, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await res.json<{ reading: { id: string } | null; analytics: boolean }>();
    expect(data.analytics).toBe(true);
    const reading = data.reading!.id;
    expect((await beacon(id, cookie, { reading, pages: [{ page: 1, seconds: 1 }] })).status).toBe(204);
    // More seconds than have passed, a page the deck does not have, a malformed report: nothing stored.
    expect((await beacon(id, cookie, { reading, pages: [{ page: 1, seconds: 90 }] })).status).toBe(422);
    expect((await beacon(id, cookie, { reading, pages: [{ page: 999, seconds: 1 }] })).status).toBe(422);
    expect((await beacon(id, cookie, { reading, pages: "nope" })).status).toBe(400);
    expect((await beacon(id, cookie, { reading: "someone-elses", pages: [{ page: 1, seconds: 1 }] })).status).toBe(404);
    const times = await env.DB.prepare("SELECT page, ms FROM room_page_times").all<{ page: number; ms: number }>();
    expect(times.results).toEqual([{ page: 1, ms: 1000 }]);
    // The investor's own record lists the page time; erasing empties it and keeps the invitation.
    const record = await callRoute(recordPage, { path: `/rooms/${id}/record`, params: { id }, cookie }).then(
      asResponse,
    );
    expect(record.status).toBe(200);
    expect(JSON.stringify(await record.json())).toContain("1000");
    const erase = await callRoute(recordAction, {
      path: `/rooms/${id}/record`,
      params: { id },
      form: { intent: "erase" },
      cookie,
    }).then(asResponse);
    expect(erase.status).toBe(303);
    expect(await count("room_page_times")).toBe(0);
    expect(await count("room_invitations")).toBe(1);
    expect(await count("room_nda_acceptances")).toBe(1);
    // A visitor without the room's session reaches none of it.
    expect((await viewer(path)).status).toBe(404);
  });

  it("stores nothing for a reader who left the box unticked", async () => {
    const { id, cookie, viewer: path } = await reader("bo@example.com", false);
    const data = await (await viewer(path, cookie)).json<{ reading: unknown; analytics: boolean }>();
    expect(data).toMatchObject({ reading: null, analytics: false });
    expect((await beacon(id, cookie, { reading: "any", pages: [{ page: 1, seconds: 1 }] })).status).toBe(404);
    expect(await count("room_readings")).toBe(0);
    expect(await count("room_page_times")).toBe(0);
  });
});
