// The newsletter host's hand-off and investors' alert preferences end to end in workerd (issue
// 52), through the built worker and the real local inbox: the page's two forms for an admin
// alone; a new export holds a subscriber confirmed by mail and never a pending or alerts-only
// address, once; the host's own export ends a subscription; and a subscriber who ticks GaaS on
// the page their confirmation mail links gets GaaS's alert and not FiscalMe's.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ALERTS_CONFIRMATION_SUBJECT, CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { listMail, waitForMail, type InboxMail } from "../fixtures/inbox";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";
import { postForm } from "./leads-helpers";

const inbox = inject("inboxURL");
const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const PATH = "/admin/subscribers/handoff";

let admin: Jar;
let member: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
  member = (await signIn("handoff-member@example.com")).jar;
});

const post = (path: string | URL, body: Record<string, string> | FormData, jar?: Jar) =>
  SELF.fetch(new URL(path, ORIGIN), {
    method: "POST",
    headers: {
      ...(body instanceof FormData ? {} : { "Content-Type": "application/x-www-form-urlencoded" }),
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      ...(jar ? { Cookie: jar.header() } : {}),
    },
    body: body instanceof FormData ? body : new URLSearchParams(body).toString(),
    redirect: "manual",
  });

const linkIn = (mail: InboxMail, path: string) => {
  const match = mail.text.match(new RegExp(`https://afx\\.test/${path}/[A-Za-z0-9_.-]+`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return new URL(match[0]);
};

/** Signs `email` up for `topic` from a form, and (unless `confirm` is false) follows its mail's confirmation link. */
async function subscribe(email: string, topic: "newsletter" | "alerts", confirm = true) {
  const res = await postForm({
    email,
    firstName: "Ines",
    source: topic === "alerts" ? "alerts-investors" : "footer",
    topic,
    redirectTo: "/investors",
  });
  expect(res.status).toBe(303);
  const subject = topic === "alerts" ? ALERTS_CONFIRMATION_SUBJECT : CONFIRMATION_SUBJECT;
  const mail = await waitForMail(inbox, { to: email, subject });
  if (confirm) expect((await post(linkIn(mail, "newsletter/confirm"), {})).status).toBe(303);
  return mail;
}

async function exportCsv(format: string, scope: string) {
  const res = await post(PATH, { format, scope }, admin);
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; /);
  return res.text();
}

const statusOf = async (email: string, topic = "newsletter") =>
  (
    await env.DB.prepare("SELECT status FROM leads WHERE email = ?1 AND topic = ?2")
      .bind(email, topic)
      .first<{ status: string }>()
  )?.status;

describe("the hand-off page", () => {
  it("shows an admin the export and the import forms; members and visitors get the not-found page", async () => {
    const res = await get(PATH, admin, { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<select[^>]*name="format"/);
    for (const value of ["substack", "ghost", "buttondown", "new", "all"]) expect(html).toContain(`value="${value}"`);
    expect(html).toMatch(/<select[^>]*name="scope"/);
    // HTML attribute names are case-insensitive (React writes `encType`).
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<input[^>]*type="file"[^>]*name="file"/);
    expect(html).toContain('href="/admin/subscribers/handoff"');
    for (const jar of [member, undefined]) {
      const other = await get(PATH, jar, { headers: { Accept: "text/html" } });
      expect(other.status).toBe(404);
      const body = await other.text();
      expect(body).toContain("Page Not Found");
      expect(body).not.toContain('name="format"');
      expect(body).not.toContain('name="file"');
    }
  });

  it("exports a subscriber confirmed by mail once as new, always in all, never a pending or alerts-only one; the host's export ends them", async () => {
    const fresh = unique("fresh");
    const waiting = unique("waiting");
    const investor = unique("investor");
    await subscribe(fresh, "newsletter");
    await subscribe(waiting, "newsletter", false);
    await subscribe(investor, "alerts");

    const first = await exportCsv("substack", "new");
    expect(first.split("\r\n")[0]).toBe('"email"');
    expect(first).toContain(fresh);
    expect(first).not.toContain(waiting);
    expect(first).not.toContain(investor);
    // Nobody new since: back to the page, which says so, and no hand-off recorded.
    const none = await post(PATH, { format: "substack", scope: "new" }, admin);
    expect(none.status).toBe(303);
    expect(none.headers.get("Location")).toBe(`${PATH}?export=nobody-new`);
    const told = await (await get(`${PATH}?export=nobody-new`, admin, { headers: { Accept: "text/html" } })).text();
    expect(told).toContain("Nobody new since the last hand-off");
    expect(await exportCsv("substack", "all")).toContain(fresh);
    const ghost = await exportCsv("ghost", "all");
    expect(ghost.split("\r\n")[0]).toBe('"email","name","note","subscribed_to_emails","labels","created_at"');

    // The page lists the hand-offs with their consent records.
    const page = await (await get(PATH, admin, { headers: { Accept: "text/html" } })).text();
    const consent = page.match(/href="(\/admin\/subscribers\/handoff\/\d+\/consent\.csv)"/);
    expect(consent).not.toBeNull();

    // A binary file changes nothing.
    const binary = new FormData();
    binary.set("file", new File([new Uint8Array([0, 1, 2, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47])], "x.png"));
    const refused = await post(PATH, binary, admin);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("not text");
    expect(await statusOf(fresh)).toBe("confirmed");

    // Substack's export with the subscriber's e-mail disabled: their subscription ends here.
    const substack = new FormData();
    substack.set(
      "file",
      new File(
        [
          `email,active_subscription,expiry,email_disabled,created_at\r\n${fresh},false,,true,2026-11-20T10:00:00.000Z\r\n`,
        ],
        "substack.csv",
        { type: "text/csv" },
      ),
    );
    // First a preview that names them and changes nothing, then its "End 1 subscription" form.
    const imported = await post(PATH, substack, admin);
    expect(imported.status).toBe(200);
    const said = (await imported.text()).replaceAll("<!-- -->", "");
    expect(said).toContain("Substack export read: 1 row, 1 matched, 0 not known here. Nothing has changed yet.");
    expect(said).toContain(`<li class="wrap-anywhere">${fresh}</li>`);
    expect(said).toContain("End 1 subscription</button>");
    expect(await statusOf(fresh)).toBe("confirmed");
    const end = new FormData();
    end.set("intent", "end");
    end.set("format", "substack");
    end.set("leads", said.match(/name="leads" value="([\d,]+)"/)![1]!);
    const ended = (await (await post(PATH, end, admin)).text()).replaceAll("<!-- -->", "");
    expect(ended).toContain("Ended 1 subscription here (Substack export):");
    expect(ended).toContain(fresh);
    expect(await statusOf(fresh)).toBe("unsubscribed");
    expect(await exportCsv("substack", "all")).not.toContain(fresh);
    expect(await listMail(inbox, { to: fresh, subject: /./ })).toHaveLength(1);
  });
});

describe("alert preferences from the confirmation mail", () => {
  async function save(title: string, venture: string) {
    const res = await post(
      "/admin/news",
      { intent: "save", title, summary: `About ${title}`, body: "Body.", venture, publish: "on", alert: "on" },
      admin,
    );
    expect(res.status, await res.clone().text()).toBe(303);
  }

  it("a subscriber who ticks only GaaS gets GaaS's alert and not FiscalMe's; one who kept all gets both", async () => {
    const picky = unique("picky");
    const keen = unique("keen");
    const confirmation = await subscribe(picky, "alerts", false);
    await subscribe(keen, "alerts");
    const preferences = linkIn(confirmation, "alerts/preferences");
    const opened = await get(preferences.pathname, undefined, { headers: { Accept: "text/html" } });
    // Personal: never stored by the HTML cache or any other.
    expect(opened.headers.get("Cache-Control")).toBe("private, no-store");
    const page = await opened.text();
    expect(page).toMatch(/<input[^>]*type="checkbox"[^>]*name="venture"[^>]*value="gaas"/);
    expect(page).toMatch(/<input[^>]*type="checkbox"[^>]*name="kind"[^>]*value="news"/);
    const saved = await post(preferences, { venture: "gaas" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved.");
    expect((await post(linkIn(confirmation, "newsletter/confirm"), {})).status).toBe(303);

    const tag = crypto.randomUUID().slice(0, 6);
    await save(`GaaS news ${tag}`, "gaas");
    await save(`FiscalMe news ${tag}`, "fiscal-me");
    const gaasMail = await waitForMail(inbox, { to: picky, subject: `AFX Holding Group: GaaS news ${tag}` });
    expect(gaasMail.text).toContain("/alerts/preferences/");
    await waitForMail(inbox, { to: keen, subject: `AFX Holding Group: GaaS news ${tag}` });
    await waitForMail(inbox, { to: keen, subject: `AFX Holding Group: FiscalMe news ${tag}` });
    // The FiscalMe alert's fan-out is over (keen has it): picky was never queued one.
    expect(await listMail(inbox, { to: picky, subject: `AFX Holding Group: FiscalMe news ${tag}` })).toHaveLength(0);
    const queued = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = ?1 AND subject LIKE ?2",
    )
      .bind(picky, `%FiscalMe news ${tag}`)
      .first("n");
    expect(queued).toBe(0);
  });
});
