// Updates to readers (docs/decisions/119): a new version of a room's document reaches each investor
// who opened an earlier one exactly once per version, through the outbox; one who never opened it
// gets none; the mail's signed stop link (its page's button, or RFC 8058's one-click POST) stops
// them for that room. And the Cron Trigger's sweep of reading records past READING_RECORD_MONTHS
// (docs/decisions/117).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as documentAction } from "~/routes/admin.documents_.$id";
import { loader as roomFile } from "~/routes/rooms.$id.files.$document";
import { action as stopAction, loader as stopPage } from "~/routes/rooms.$id.updates.$token";
import { mailReadersOfNewVersion } from "~/features/engagement/updates.server";
import { getDb } from "~/utils/db.server";
import { oneClickAsData } from "../../worker/one-click";
import { runScheduledJobs } from "../../worker/scheduled";
import { pdfBytes } from "../worker/documents-helpers";
import { asResponse, callRoute, signedIn } from "./route-args";
import {
  clearRooms,
  CROSS_SITE,
  deckId,
  enter,
  get,
  invitationOf,
  invite,
  outbox,
  post,
  roomWithDeck,
} from "./room-fixtures";

beforeEach(clearRooms);

let uploads = 0;
/** The admin uploads a new version of the deck (a plain multipart POST, as without JavaScript). */
async function newVersion(admin: string, changes?: string, bytes = pdfBytes(`deck ${++uploads} ${Date.now()}`)) {
  const form = new FormData();
  if (changes !== undefined) form.append("changes", changes);
  form.append("file", new File([bytes], "deck-v2.pdf", { type: "application/pdf" }));
  const id = await deckId();
  const res = asResponse(
    await callRoute(documentAction, { path: `/admin/documents/${id}`, params: { id }, multipart: form, cookie: admin }),
  );
  return { res, bytes };
}

/** Opens the deck in the room, as its link does (an `open` in room_views). */
async function openDeck(id: string, cookie: string) {
  const path = `/rooms/${id}/files/${await deckId()}`;
  const res = await callRoute(roomFile, { path, params: { id, document: await deckId() }, cookie }).then(asResponse);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function readersAndOneWhoNeverOpened() {
  const { admin, id } = await roomWithDeck();
  const people = [
    ["ada@northwind.example", "Ada Reader", "Northwind"],
    ["bo@southwind.example", "Bo Reader", "Southwind"],
  ] as const;
  for (const [email, name, firm] of people) {
    const cookie = await enter(id, await invite(admin, id, email, name, firm), email, name);
    await openDeck(id, cookie);
  }
  // Invited, never came; and one who entered the room but never opened the deck.
  await invite(admin, id, "cy@eastwind.example", "Cy Invited", "Eastwind");
  await enter(id, await invite(admin, id, "di@westwind.example", "Di Looker", "Westwind"), "di@westwind.example", "Di");
  return { admin, id };
}

const updates = () => outbox("room-update");
const stopLinkOf = (text: string) => new URL(/one click\): (\S+)/.exec(text)![1]!).pathname;

describe("updates to those who read", () => {
  it("a new version reaches each investor who opened the earlier one exactly once; the others none", async () => {
    const { admin, id } = await readersAndOneWhoNeverOpened();
    const first = await newVersion(admin, "New revenue figures for Q3 on page 2.");
    expect(first.res.status, await first.res.clone().text()).toBe(303);
    const sent = await updates();
    expect(sent.map((m) => m.recipient).sort()).toEqual(["ada@northwind.example", "bo@southwind.example"]);
    for (const m of sent) {
      expect(m.subject).toBe("Updated: FiscalMe Pitch Deck");
      expect(m.text).toContain("What changed: New revenue figures for Q3 on page 2.");
      expect(m.text).toContain(`https://afx.test/rooms/${id}`);
      const headers = JSON.parse(m.headers) as Record<string, string>;
      expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(headers["List-Unsubscribe"]).toBe(`<https://afx.test${stopLinkOf(m.text)}>`);
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM room_update_mails").first("n")).toBe(2);

    // The same file again is no new version: nobody is mailed again.
    const again = await newVersion(admin, undefined, first.bytes);
    expect(again.res.status).toBe(400);
    // Nor is anyone mailed twice for the same version, however often it is asked.
    const version = (await env.DB.prepare("SELECT current_version_id AS v FROM documents WHERE id = ?")
      .bind(await deckId())
      .first<{ v: number }>())!.v;
    const ctx = { waitUntil: () => {} };
    expect(
      await mailReadersOfNewVersion(env, ctx, getDb(env), {
        documentId: await deckId(),
        versionId: version,
        title: "FiscalMe Pitch Deck",
        changes: null,
      }),
    ).toBe(0);
    expect(await updates()).toHaveLength(2);

    // A second new version: one more each, with the default line when the upload named no change.
    expect((await newVersion(admin)).res.status).toBe(303);
    const after = await updates();
    expect(after).toHaveLength(4);
    expect(
      after
        .slice(2)
        .map((m) => m.recipient)
        .sort(),
    ).toEqual(["ada@northwind.example", "bo@southwind.example"]);
    expect(after[3]!.text).toContain("What changed: a new version replaces the one you read");
    expect(after.some((m) => /cy@|di@/.test(m.recipient))).toBe(false);
  });

  it("the stop link asks first, then stops that investor's mails for that room", async () => {
    const { admin, id } = await readersAndOneWhoNeverOpened();
    expect((await newVersion(admin)).res.status).toBe(303);
    const adaMail = (await updates()).find((m) => m.recipient === "ada@northwind.example")!;
    const stop = stopLinkOf(adaMail.text);
    expect(stop).toMatch(new RegExp(`^/rooms/${id}/updates/[^/]+$`));

    const page = await get(stopPage, stop);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await page.json()).toMatchObject({ roomTitle: "FiscalMe seed round", stopped: false });
    // Nothing changed by looking; a cross-site form changes nothing either.
    const ada = await invitationOf("ada@northwind.example");
    const offAt = () =>
      env.DB.prepare("SELECT updates_off_at AS at FROM room_preferences WHERE invitation_id = ?").bind(ada).first("at");
    expect(await offAt()).toBeNull();
    expect((await post(stopAction, stop, {}, undefined, undefined, CROSS_SITE)).status).toBe(403);
    expect(await offAt()).toBeNull();
    // A tampered link, and a link of another room, are unknown pages.
    expect((await get(stopPage, `${stop.slice(0, -2)}xx`)).status).toBe(404);
    expect((await get(stopPage, stop.replace(id, "AAAAAAAAAAAAAAAA"))).status).toBe(404);

    const pressed = await post(stopAction, stop, {});
    expect(pressed.status).toBe(303);
    expect(await offAt()).not.toBeNull();
    expect(await (await get(stopPage, stop)).json()).toMatchObject({ stopped: true });

    // The next version reaches Bo only.
    expect((await newVersion(admin)).res.status).toBe(303);
    const next = (await updates()).slice(2);
    expect(next.map((m) => m.recipient)).toEqual(["bo@southwind.example"]);

    // RFC 8058: the mail client's one-click POST, from its own servers, stops Bo's.
    const oneClick = await post(
      stopAction,
      stopLinkOf(next[0]!.text),
      { "List-Unsubscribe": "One-Click" },
      undefined,
      undefined,
      CROSS_SITE,
    );
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toBe("Unsubscribed.");
    expect((await newVersion(admin)).res.status).toBe(303);
    expect(await updates()).toHaveLength(3);
  });

  it("the worker hands a mail client's one-click POST to the stop route's data URL (its plain answer)", async () => {
    const url = new URL("https://afx.test/rooms/AAAAAAAAAAAAAAAA/updates/token");
    const oneClick = new Request(url, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(new URL((await oneClickAsData(oneClick, url)).url).searchParams.get("_data")).toBe(
      "routes/rooms.$id.updates.$token",
    );
    const button = new Request(url, {
      method: "POST",
      body: "",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((await oneClickAsData(button, url)).url).toBe(url.href);
  });

  it("a member's upload changes nothing and mails nobody", async () => {
    const { id } = await readersAndOneWhoNeverOpened();
    const member = await signedIn("member@example.com");
    expect((await newVersion(member)).res.status).toBe(404);
    expect(await updates()).toEqual([]);
    expect(id).toBeTruthy();
  });
});

describe("the reading record sweep", () => {
  it("deletes reading records past READING_RECORD_MONTHS and keeps newer ones", async () => {
    const { admin, id } = await roomWithDeck();
    const cookie = await enter(
      id,
      await invite(admin, id, "ada@northwind.example", "Ada", ""),
      "ada@northwind.example",
      "Ada",
    );
    await openDeck(id, cookie);
    const invitation = await invitationOf("ada@northwind.example");
    const deck = await deckId();
    const version = (await env.DB.prepare("SELECT current_version_id AS v FROM documents WHERE id = ?")
      .bind(deck)
      .first<{ v: number }>())!.v;
    const now = Date.now();
    const month = 30.44 * 24 * 3600 * 1000;
    const old = now - 25 * month;
    const recent = now - 23 * month;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO room_views (invitation_id, document_id, version_id, kind, at) VALUES (?, ?, ?, 'open', ?), (?, ?, ?, 'open', ?)",
      ).bind(invitation, deck, version, old, invitation, deck, version, recent),
      env.DB.prepare(
        "INSERT INTO room_readings (id, invitation_id, document_id, version_id, page_count, started_at, last_report_at) VALUES ('old', ?, ?, ?, 3, ?, ?), ('new', ?, ?, ?, 3, ?, ?)",
      ).bind(invitation, deck, version, old, old, invitation, deck, version, recent, recent),
      env.DB.prepare("INSERT INTO room_page_times (reading_id, page, ms) VALUES ('old', 1, 5000), ('new', 1, 7000)"),
    ]);
    const { readingRecords } = await runScheduledJobs(env, now, { mail: false });
    // The old reading, its page time (D1 may count the cascade too) and the old open.
    expect(readingRecords).toBeGreaterThanOrEqual(2);
    const views = await env.DB.prepare("SELECT at FROM room_views WHERE invitation_id = ? ORDER BY at")
      .bind(invitation)
      .all<{ at: number }>();
    expect(views.results.map((v) => v.at)).not.toContain(old);
    expect(views.results.map((v) => v.at)).toContain(recent);
    expect(views.results).toHaveLength(2); // the recent one and today's open
    expect((await env.DB.prepare("SELECT id FROM room_readings").all()).results).toEqual([{ id: "new" }]);
    expect((await env.DB.prepare("SELECT reading_id AS r, ms FROM room_page_times").all()).results).toEqual([
      { r: "new", ms: 7000 },
    ]);
    // The invitation, the NDA acceptance stay.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM room_nda_acceptances").first("n")).toBe(1);
  });
});
