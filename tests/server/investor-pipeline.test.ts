// The investor pipeline (docs/decisions/118): each investor once across the rooms, a stage per
// venture ("Invited", "Opened" from the rooms, the rest set by the `stage` form and audited), the
// URL's filters, and the CSV with the same filters, formula-safe. Rooms, invitations and the
// investor's entry go through their own routes; the browser's walk is tests/e2e/rooms.test.ts's.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as createRoom } from "~/routes/admin.rooms";
import { action as changeRoom } from "~/routes/admin.rooms_.$id";
import { action as setStage, loader as pipelinePage } from "~/routes/admin.investors";
import { loader as pipelineCsvRoute } from "~/routes/admin.investors[.]csv";
import { action as join } from "~/routes/rooms.$id.join.$token";
import { loader as roomPage } from "~/routes/rooms.$id._index";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";
import { clearRooms, count, CROSS_SITE } from "./room-fixtures";

const ADA = "ada@northwind.example";
const BO = "bo@southwind.example";
const EVIL_FIRM = '=HYPERLINK("https://evil.example","Click")';

beforeEach(clearRooms);

async function openRoom(admin: string, title: string, venture: string): Promise<string> {
  const res = asResponse(
    await callRoute(createRoom, { path: "/admin/rooms", form: { title, venture }, cookie: admin }),
  );
  expect(res.status, await res.clone().text()).toBe(303);
  return new URL(res.headers.get("Location")!, ORIGIN).pathname.split("/").pop()!;
}

/** Invites `email` to room `id`; the personal link from the invitation mail. */
async function invite(admin: string, id: string, email: string, name: string, firm: string) {
  const res = await callRoute(changeRoom, {
    path: `/admin/rooms/${id}`,
    params: { id },
    form: { intent: "invite", email, name, firm },
    cookie: admin,
  }).then(asResponse);
  expect(res.status, await res.clone().text()).toBe(303);
  const mail = await env.DB.prepare(
    "SELECT text_body AS text FROM mail_outbox WHERE recipient = ? AND kind = 'room-invitation' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ text: string }>();
  return /https:\/\/afx\.test(\/rooms\/[^\s]+)/.exec(mail!.text)![1]!;
}

/** The investor follows the link, proves the address with the mailed code and opens the room. */
async function openAsInvestor(link: string, email: string) {
  const [, , id, , token] = link.split("/");
  const params = { id: id!, token: token! };
  const post = (form: Record<string, string>, cookie?: string) =>
    callRoute(join, { path: link, params, form, cookie }).then(asResponse);
  expect((await post({ intent: "address", email })).status).toBe(303);
  const mail = await env.DB.prepare(
    "SELECT text_body AS text FROM mail_outbox WHERE recipient = ? AND kind = 'room-code' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ text: string }>();
  const code = /\b\d{6}\b/.exec(mail!.text)![0];
  const entered = await post({ intent: "code", code });
  expect(entered.status, await entered.clone().text()).toBe(303);
  const cookie = entered.headers.get("Set-Cookie")!.split(";")[0]!;
  const room = await callRoute(roomPage, { path: `/rooms/${id}`, params: { id: id! }, cookie }).then(asResponse);
  expect(room.status).toBe(200);
}

/** Two rooms: FiscalMe's (Ada and Bo) and the group's own (Ada only). */
async function setUp() {
  const admin = await signedIn(ADMIN);
  const fiscal = await openRoom(admin, "FiscalMe seed round", "fiscal-me");
  const group = await openRoom(admin, "Group bridge round", "");
  const adaLink = await invite(admin, fiscal, ADA, "Ada Investor", "Northwind Capital");
  await invite(admin, group, ADA, "Ada Investor", "Northwind Capital");
  await invite(admin, fiscal, BO, "Bo Banker", EVIL_FIRM);
  const ids = Object.fromEntries(
    (await env.DB.prepare("SELECT id, email FROM investors").all<{ id: string; email: string }>()).results.map((r) => [
      r.email,
      r.id,
    ]),
  ) as Record<string, string>;
  return { admin, fiscal, group, adaLink, ada: ids[ADA]!, bo: ids[BO]! };
}

interface PageData {
  investors: {
    investorId: string;
    email: string;
    firm: string;
    rooms: string[];
    ventures: { id: string; name: string; stage: string }[];
  }[];
  filterError: string | null;
}

const page = (cookie?: string, query = "") =>
  callRoute(pipelinePage, { path: `/admin/investors${query}`, cookie }).then(asResponse);
const pageData = async (cookie: string, query = "") => {
  const res = await page(cookie, query);
  expect(res.status).toBe(200);
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  return res.json<PageData>();
};
const stagesOf = (data: PageData, email: string) =>
  Object.fromEntries(data.investors.find((i) => i.email === email)?.ventures.map((v) => [v.id, v.stage]) ?? []);
const postStage = (form: Record<string, string>, cookie?: string, headers?: Record<string, string>, query = "") =>
  callRoute(setStage, { path: `/admin/investors${query}`, form, cookie, headers }).then(asResponse);
const csv = (cookie?: string, query = "", headers?: Record<string, string>) =>
  callRoute(pipelineCsvRoute, { path: `/admin/investors.csv${query}`, cookie, headers }).then(asResponse);

describe("/admin/investors", () => {
  it("lists each investor once with their rooms and ventures: invited, then opened after a visit", async () => {
    const { admin, adaLink } = await setUp();
    const before = await pageData(admin);
    expect(before.investors.map((i) => i.email).sort()).toEqual([ADA, BO]);
    const ada = before.investors.find((i) => i.email === ADA)!;
    expect(ada.firm).toBe("Northwind Capital");
    expect(ada.rooms.sort()).toEqual(["FiscalMe seed round", "Group bridge round"]);
    expect(ada.ventures.map((v) => v.name).sort()).toEqual(["AFX Holding Group", "FiscalMe"]);
    expect(stagesOf(before, ADA)).toEqual({ "fiscal-me": "Invited", group: "Invited" });
    expect(stagesOf(before, BO)).toEqual({ "fiscal-me": "Invited" });

    await openAsInvestor(adaLink, ADA);
    const after = await pageData(admin);
    expect(stagesOf(after, ADA)).toEqual({ "fiscal-me": "Opened", group: "Invited" });
    expect(stagesOf(after, BO)).toEqual({ "fiscal-me": "Invited" });
    // The most recent activity first: Ada opened the room after Bo was invited.
    expect(after.investors[0]!.email).toBe(ADA);
  });

  it("sets the stage Meeting with the form: stored, audited, shown on the page and in the CSV", async () => {
    const { admin, adaLink, ada } = await setUp();
    await openAsInvestor(adaLink, ADA);
    const res = await postStage(
      { investor: ada, venture: "fiscal-me", stage: "Meeting" },
      admin,
      undefined,
      "?venture=fiscal-me",
    );
    expect(res.status, await res.clone().text()).toBe(303);
    expect(new URL(res.headers.get("Location")!, ORIGIN).href).toBe(`${ORIGIN}/admin/investors?venture=fiscal-me`);
    expect(
      await env.DB.prepare("SELECT venture, stage, set_by AS setBy FROM investor_stages WHERE investor_id = ?")
        .bind(ada)
        .all(),
    ).toMatchObject({ results: [{ venture: "fiscal-me", stage: "Meeting", setBy: ADMIN }] });
    const audit = await env.DB.prepare(
      "SELECT actor, target, detail FROM audit_log WHERE action = 'investor.stage'",
    ).all();
    expect(audit.results).toEqual([{ actor: ADMIN, target: `investor ${ada}`, detail: "fiscal-me: Meeting" }]);
    expect(stagesOf(await pageData(admin), ADA)).toEqual({ "fiscal-me": "Meeting", group: "Invited" });

    // The group's rooms have their own stage; setting it again replaces it.
    for (const stage of ["Passed", "Term sheet"])
      expect((await postStage({ investor: ada, venture: "group", stage }, admin)).status).toBe(303);
    expect(stagesOf(await pageData(admin), ADA)).toEqual({ "fiscal-me": "Meeting", group: "Term sheet" });
    expect(await count("investor_stages")).toBe(2);

    const file = await csv(admin);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="afx-investors-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(0, 3)], "a UTF-8 BOM").toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith('"Email","Name","Firm","Venture","Stage","Rooms","Last activity"\r\n')).toBe(true);
    expect(text).toContain(`"${ADA}","Ada Investor","Northwind Capital","FiscalMe","Meeting","FiscalMe seed round","`);
    expect(text).toContain(`"${ADA}","Ada Investor","Northwind Capital","AFX Holding Group","Term sheet",`);
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(4);
    expect(await count("audit_log WHERE action = 'investors.export'")).toBe(1);
  });

  it("filters by venture and stage in the URL, the page and the CSV alike; unknown filters are a 400", async () => {
    const { admin, adaLink, ada } = await setUp();
    await openAsInvestor(adaLink, ADA);
    expect((await postStage({ investor: ada, venture: "fiscal-me", stage: "Meeting" }, admin)).status).toBe(303);

    const meeting = await pageData(admin, "?venture=fiscal-me&stage=Meeting");
    expect(meeting.investors.map((i) => i.email)).toEqual([ADA]);
    expect(meeting.investors[0]!.ventures).toEqual([{ id: "fiscal-me", name: "FiscalMe", stage: "Meeting" }]);
    const invited = await pageData(admin, "?stage=Invited");
    expect(invited.investors.map((i) => [i.email, i.ventures.map((v) => v.id)])).toEqual(
      expect.arrayContaining([
        [ADA, ["group"]],
        [BO, ["fiscal-me"]],
      ]),
    );
    expect(invited.investors).toHaveLength(2);
    expect((await pageData(admin, "?venture=group")).investors.map((i) => i.email)).toEqual([ADA]);
    expect((await pageData(admin, "?venture=fiscal-me&stage=Committed")).investors).toEqual([]);
    // Empty values (the form's "Every venture") are no filter.
    expect((await pageData(admin, "?venture=&stage=")).investors).toHaveLength(2);

    const rows = (await (await csv(admin, "?stage=Meeting")).text()).split("\r\n").filter(Boolean);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('"FiscalMe","Meeting"');

    for (const query of ["?venture=nowhere", "?stage=Lunch"]) {
      const bad = await page(admin, query);
      expect(bad.status).toBe(400);
      const data = await bad.json<PageData>();
      expect(data.investors).toEqual([]);
      expect(data.filterError).toMatch(/Please choose one of the (ventures|stages)\./);
      expect((await csv(admin, query)).status).toBe(400);
    }
  });

  it("is the not-found page for a visitor and a member; their POST and CSV change and give nothing", async () => {
    const { ada } = await setUp();
    const member = await signedIn("member@example.com");
    for (const cookie of [undefined, member]) {
      expect((await page(cookie)).status).toBe(404);
      const res = await postStage({ investor: ada, venture: "fiscal-me", stage: "Meeting" }, cookie);
      expect(res.status).toBe(404);
      // A navigation to the CSV gets the not-found page; a fetch its 401/403; never a file.
      const nav = await csv(cookie, "", { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document" });
      expect(nav.status).toBe(404);
      const fetched = await csv(cookie);
      expect([401, 403]).toContain(fetched.status);
      expect(fetched.headers.get("Content-Type")).not.toMatch(/text\/csv/);
    }
    expect(await count("investor_stages")).toBe(0);
    expect(await count("audit_log WHERE action LIKE 'investor%'")).toBe(0);
  });

  it("refuses another site's POST and CSV with a 403, storing nothing", async () => {
    const { admin, ada } = await setUp();
    const res = await postStage({ investor: ada, venture: "fiscal-me", stage: "Meeting" }, admin, CROSS_SITE);
    expect(res.status).toBe(403);
    expect((await csv(admin, "", { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect(await count("investor_stages")).toBe(0);
    expect(await count("audit_log WHERE action LIKE 'investor%'")).toBe(0);
  });

  it("answers a bad stage, investor or venture with a 400 that says so, storing nothing", async () => {
    const { admin, ada, bo } = await setUp();
    const cases: [Record<string, string>, RegExp][] = [
      [
        { investor: ada, venture: "fiscal-me", stage: "Lunch" },
        /Please choose a stage: Meeting, Term sheet, Committed, Passed\./,
      ],
      [{ investor: ada, venture: "fiscal-me", stage: "Opened" }, /Please choose a stage/],
      [{ investor: ada, venture: "fiscal-me" }, /Please choose a stage/],
      [{ venture: "fiscal-me", stage: "Meeting" }, /expected an investor/],
      [{ investor: ada, stage: "Meeting" }, /expected a venture/],
      [{ investor: "no-such-investor", venture: "fiscal-me", stage: "Meeting" }, /No room of that venture/],
      [{ investor: ada, venture: "nowhere", stage: "Meeting" }, /No room of that venture/],
      // Bo was invited to FiscalMe's room only, not to the group's.
      [{ investor: bo, venture: "group", stage: "Meeting" }, /No room of that venture/],
    ];
    for (const [form, message] of cases) {
      const res = await postStage(form, admin);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      expect((await res.json<{ error: string }>()).error).toMatch(message);
    }
    expect(await count("investor_stages")).toBe(0);
    expect(await count("audit_log WHERE action LIKE 'investor%'")).toBe(0);
  });

  it("writes a firm that starts a formula as text in the CSV", async () => {
    const { admin } = await setUp();
    const text = await (await csv(admin)).text();
    expect(text).toContain(
      `"${BO}","Bo Banker","'=HYPERLINK(""https://evil.example"",""Click"")","FiscalMe","Invited"`,
    );
    for (const line of text
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean))
      for (const cell of line.slice(1, -1).split('","')) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
