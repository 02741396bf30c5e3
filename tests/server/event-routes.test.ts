// Events (docs/decisions/095–097): the admin's pages and their form, the public pages, the venture
// page, the calendar files parsed by Mozilla's ical.js (Thunderbird's parser), and the reminders
// through the alerts' fan-out, each loader and action called directly without a build. The
// worker's own answers for the files and the cached pages are tests/worker/events.test.ts's.
import { env } from "cloudflare:test";
import ICAL from "ical.js";
import { beforeEach, describe, expect, it } from "vitest";
import { action as createEvent, loader as eventsAdmin } from "~/routes/admin.events";
import { action as changeEvent, loader as eventAdmin } from "~/routes/admin.events_.$id";
import { loader as eventsList } from "~/routes/events._index";
import { loader as eventPage } from "~/routes/events.$slug";
import { loader as eventIcs } from "~/routes/events.$slug[.]ics";
import { loader as eventsFeed } from "~/routes/events[.]ics";
import { loader as venturePage } from "~/routes/subsidiary.$id";
import { loader as sitemapXml } from "~/routes/sitemap[.]xml";
import { action as signupAction } from "~/routes/api.leads";
import { action as saveSettings, loader as settings } from "~/routes/settings";
import {
  remindDueEvents,
  REMINDER_LEAD_MS,
  setEventReminders,
  eventRemindersOf,
} from "~/features/events/reminders.server";
import { getDb } from "~/utils/db.server";
import { getFlashToast } from "~/utils/flash.server";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM events"),
    env.DB.prepare("DELETE FROM audit_log"),
    env.DB.prepare("DELETE FROM rate_limits"),
    env.DB.prepare("DELETE FROM alert_recipients"),
    env.DB.prepare("DELETE FROM alert_sends"),
    env.DB.prepare("DELETE FROM mail_outbox"),
    env.DB.prepare("DELETE FROM leads"),
  ]);
});

const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
const DAY = 24 * 60 * 60 * 1000;

/** A datetime-local value `days` from now at 16:00 (the zone's clock). */
const dayAt = (days: number, time = "16:00") =>
  `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T${time}`;

const form = (over: Record<string, string | undefined> = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries({
      title: "GaaS demo day",
      description: "The **GaaS** demo, with questions; then drinks.",
      start: dayAt(30),
      end: dayAt(30, "18:00"),
      timezone: "Europe/Berlin",
      location: "Berlin, Alexanderplatz 1",
      url: "https://example.com/webcast",
      venture: "gaas",
      publish: "on",
      ...over,
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );

const eventCount = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM events").first<{ n: number }>())!.n;

interface Row {
  id: number;
  slug: string;
  uid: string;
  sequence: number;
  starts_at: number;
  status: string;
}
const rowOf = (id: number) => env.DB.prepare("SELECT * FROM events WHERE id = ?").bind(id).first<Row>();

/** Creates an event through the admin's form: its row. */
async function create(admin: string, over: Record<string, string | undefined> = {}): Promise<Row> {
  const res = asResponse(await callRoute(createEvent, { path: "/admin/events", form: form(over), cookie: admin }));
  expect(res.status, await res.clone().text()).toBe(303);
  const id = Number(new URL(res.headers.get("Location")!, ORIGIN).pathname.split("/").pop());
  return (await rowOf(id))!;
}

async function change(admin: string, id: number, fields: Record<string, string>) {
  return asResponse(
    await callRoute(changeEvent, {
      path: `/admin/events/${id}`,
      params: { id: String(id) },
      form: fields,
      cookie: admin,
    }),
  );
}

/** The VEVENTs of a calendar file, parsed by ical.js. */
async function parse(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
  const text = await res.text();
  expect(text.endsWith("\r\n")).toBe(true);
  expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  for (const line of text.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((c) => {
    const e = new ICAL.Event(c);
    return {
      uid: e.uid,
      start: e.startDate.toJSDate().getTime(),
      end: e.endDate.toJSDate().getTime(),
      summary: e.summary,
      sequence: e.sequence,
      status: String(c.getFirstPropertyValue("status")),
      url: String(c.getFirstPropertyValue("url")),
      location: e.location,
      description: e.description,
    };
  });
}

const feed = async (venture?: string) =>
  parse(asResponse(await callRoute(eventsFeed, { path: venture ? `/events.ics?venture=${venture}` : "/events.ics" })));

/** The instant of a Berlin wall-clock time (CET +1 or CEST +2), from the offset Intl gives. */
function berlin(local: string): number {
  const guess = Date.parse(`${local}:00Z`);
  const name = new Intl.DateTimeFormat("en-US", { timeZone: "Europe/Berlin", timeZoneName: "longOffset" })
    .formatToParts(guess)
    .find((p) => p.type === "timeZoneName")!.value; // "GMT+01:00"
  const [, sign, h, m] = /GMT([+-])(\d{2}):(\d{2})/.exec(name)!;
  return guess - (sign === "-" ? -1 : 1) * (Number(h) * 60 + Number(m)) * 60_000;
}

describe("/admin/events", () => {
  it("is the not-found page for a visitor and a member; a member's and a cross-site POST store nothing", async () => {
    const member = await signedIn("member@example.com");
    const admin = await signedIn(ADMIN);
    expect(asResponse(await callRoute(eventsAdmin, { path: "/admin/events" })).status).toBe(404);
    expect(asResponse(await callRoute(eventsAdmin, { path: "/admin/events", cookie: member })).status).toBe(404);
    const page = asResponse(await callRoute(eventsAdmin, { path: "/admin/events", cookie: admin }));
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await page.json<{
      events: unknown[];
      zones: { common: { value: string; label: string }[]; rest: { value: string; label: string }[] };
    }>();
    expect(data.events).toEqual([]);
    // A short list first, the group's zone written as a place; every other zone after it.
    expect(data.zones.common[0]).toEqual({
      value: "Europe/Berlin",
      label: expect.stringMatching(/^Berlin \(UTC\+[12]\)$/),
    });
    expect(data.zones.rest).toContainEqual({
      value: "America/New_York",
      label: expect.stringMatching(/^New York \(UTC-[45]\)$/),
    });
    expect(asResponse(await callRoute(createEvent, { path: "/admin/events", form: form() })).status).toBe(404);
    expect(
      asResponse(await callRoute(createEvent, { path: "/admin/events", form: form(), cookie: member })).status,
    ).toBe(404);
    const cross = asResponse(
      await callRoute(createEvent, { path: "/admin/events", form: form(), cookie: admin, headers: CROSS_SITE }),
    );
    expect(cross.status).toBe(403);
    expect(await eventCount()).toBe(0);
    // Nor can they change one.
    const made = await create(admin);
    expect((await change(member, made.id, { intent: "cancel" })).status).toBe(404);
    expect(
      asResponse(
        await callRoute(changeEvent, {
          path: `/admin/events/${made.id}`,
          params: { id: String(made.id) },
          form: { intent: "delete" },
          cookie: admin,
          headers: CROSS_SITE,
        }),
      ).status,
    ).toBe(403);
    expect((await rowOf(made.id))!.status).toBe("scheduled");
  });

  it.each([
    ["an end before its start", { end: dayAt(29) }, "end", "The end must be after the start."],
    ["an unknown zone", { timezone: "Mars/Olympus_Mons" }, "timezone", "Please choose a time zone"],
    ["a link that is not https", { url: "http://example.com/webcast" }, "url", "Please enter an https:// link."],
    ["an empty title", { title: "  " }, "title", "Please enter a title."],
    ["an unknown venture", { venture: "nope" }, "venture", "Please choose one of the ventures"],
    [
      "an all-day event ending 9999-12-31",
      { allDay: "on", start: "9999-12-30T00:00", end: "9999-12-31T00:00" },
      "end",
      "between the years 1900 and 2999",
    ],
    ["a start in the year 0999", { start: "0999-01-01T10:00" }, "start", "between the years 1900 and 2999"],
  ])("refuses %s with a clear error, keeps the fields and stores nothing", async (_, over, field, message) => {
    const admin = await signedIn(ADMIN);
    const sent = form(over);
    const res = asResponse(await callRoute(createEvent, { path: "/admin/events", form: sent, cookie: admin }));
    expect(res.status).toBe(400);
    const { result } = await res.json<{
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    }>();
    expect(result.error[field]?.join(" ")).toContain(message);
    expect(result.initialValue).toMatchObject({ start: sent.start, end: sent.end, location: sent.location });
    expect(await eventCount()).toBe(0);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first<{ n: number }>())!.n).toBe(0);
  });

  it("takes a description at its limit in any script (15,000 × é, sent URL-encoded as a browser does)", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin, { description: "é".repeat(15_000) });
    expect(
      (await env.DB.prepare("SELECT description FROM events WHERE id = ?")
        .bind(made.id)
        .first<{ description: string }>())!.description,
    ).toHaveLength(15_000);
  });

  it("creates a published event in Europe/Berlin at the right instant, audited, and shows it in the form", async () => {
    const admin = await signedIn(ADMIN);
    const start = dayAt(30);
    const made = await create(admin, { start });
    expect(made).toMatchObject({ slug: "gaas-demo-day", sequence: 0, status: "scheduled", starts_at: berlin(start) });
    expect(made.uid).toMatch(/^[0-9a-f-]{36}@/);
    const audit = await env.DB.prepare("SELECT action, actor, target FROM audit_log").all();
    expect(audit.results).toEqual([{ action: "event.publish", actor: ADMIN, target: "event gaas-demo-day" }]);
    const page = asResponse(
      await callRoute(eventAdmin, { path: `/admin/events/${made.id}`, params: { id: String(made.id) }, cookie: admin }),
    );
    const { values } = await page.json<{ values: Record<string, string> }>();
    expect(values).toMatchObject({ start, end: dayAt(30, "18:00"), timezone: "Europe/Berlin", venture: "gaas" });
  });

  it("moving the start raises SEQUENCE and keeps the UID; an edit that changes nothing keeps both", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin);
    const [before] = await feed();
    expect(before).toMatchObject({ uid: made.uid, sequence: 0, start: berlin(dayAt(30)) });
    expect((await change(admin, made.id, form())).status).toBe(303);
    expect((await rowOf(made.id))!.sequence).toBe(0);
    expect((await change(admin, made.id, form({ start: dayAt(31), end: dayAt(31, "18:00") }))).status).toBe(303);
    const [moved] = await feed();
    expect(moved).toMatchObject({
      uid: made.uid,
      sequence: 1,
      start: berlin(dayAt(31)),
      end: berlin(dayAt(31, "18:00")),
    });
    expect((await rowOf(made.id))!.slug).toBe(made.slug);
  });

  it("cancelling keeps the event in every feed as CANCELLED with a higher SEQUENCE; deleting (confirmed) removes it", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin);
    const cancel = await change(admin, made.id, { intent: "cancel" });
    expect(cancel.status).toBe(303);
    for (const events of [await feed(), await feed("gaas")]) {
      expect(events).toEqual([expect.objectContaining({ uid: made.uid, status: "CANCELLED", sequence: 1 })]);
    }
    const page = asResponse(await callRoute(eventPage, { path: `/events/${made.slug}`, params: { slug: made.slug } }));
    expect(await page.json()).toMatchObject({ event: { status: "cancelled" } });
    // The confirmation step is a page of its own (no JavaScript needed).
    const confirm = asResponse(
      await callRoute(eventAdmin, {
        path: `/admin/events/${made.id}?confirm=delete`,
        params: { id: String(made.id) },
        cookie: admin,
      }),
    );
    expect(await confirm.json()).toMatchObject({ confirm: "delete" });
    expect((await change(admin, made.id, { intent: "delete" })).status).toBe(303);
    expect(await feed()).toEqual([]);
    expect(await eventCount()).toBe(0);
    const actions = await env.DB.prepare("SELECT action FROM audit_log ORDER BY id").all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual(["event.publish", "event.cancel", "event.delete"]);
  });

  it("Cancel asks first; Reinstate puts it back CONFIRMED with a higher SEQUENCE; an edit is 'Saved'", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin);
    const asked = asResponse(
      await callRoute(eventAdmin, {
        path: `/admin/events/${made.id}?confirm=cancel`,
        params: { id: String(made.id) },
        cookie: admin,
      }),
    );
    // The step is the page's own (no JavaScript); asking changes nothing.
    expect(await asked.json()).toMatchObject({ confirm: "cancel", event: { status: "scheduled" } });
    expect((await rowOf(made.id))!).toMatchObject({ status: "scheduled", sequence: 0 });
    expect((await change(admin, made.id, { intent: "cancel" })).status).toBe(303);
    const reinstated = await change(admin, made.id, { intent: "reinstate" });
    expect(reinstated.status).toBe(303);
    expect(reinstated.headers.get("Location")).toBe(`/admin/events/${made.id}`);
    expect((await rowOf(made.id))!).toMatchObject({ status: "scheduled", sequence: 2 });
    expect(await feed()).toEqual([expect.objectContaining({ uid: made.uid, status: "CONFIRMED", sequence: 2 })]);
    const page = asResponse(await callRoute(eventPage, { path: `/events/${made.slug}`, params: { slug: made.slug } }));
    expect(await page.json()).toMatchObject({ event: { status: "scheduled" } });
    const actions = await env.DB.prepare("SELECT action FROM audit_log ORDER BY id").all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual(["event.publish", "event.cancel", "event.reinstate"]);
    // An edit of a published event says "Saved" (its toast rides in the flash cookie).
    const edited = await change(admin, made.id, form({ location: "Hamburg" }));
    expect(edited.status).toBe(303);
    const flash = new Request(ORIGIN, { headers: { Cookie: edited.headers.get("Set-Cookie")!.split(";")[0]! } });
    expect((await getFlashToast(env, flash)).toast).toMatchObject({ title: "Saved" });
  });

  it("a draft has no page, no place in the lists or the feeds", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin, { publish: undefined });
    expect(
      asResponse(await callRoute(eventPage, { path: `/events/${made.slug}`, params: { slug: made.slug } })).status,
    ).toBe(404);
    expect(
      asResponse(await callRoute(eventIcs, { path: `/events/${made.slug}.ics`, params: { slug: made.slug } })).status,
    ).toBe(404);
    expect(await feed()).toEqual([]);
  });
});

describe("the public pages and files", () => {
  it("/events lists upcoming soonest first, then past; the page, the venture page and the sitemap show it", async () => {
    const admin = await signedIn(ADMIN);
    const later = await create(admin, {
      title: "Annual meeting",
      venture: "",
      start: dayAt(60),
      end: dayAt(60, "18:00"),
    });
    const soon = await create(admin, { start: dayAt(10), end: dayAt(10, "18:00") });
    const past = await create(admin, { title: "Old webinar", start: dayAt(-10), end: dayAt(-10, "18:00") });
    const list = await asResponse(await callRoute(eventsList, { path: "/events" })).json<{
      upcoming: { slug: string }[];
      past: { slug: string }[];
    }>();
    expect(list.upcoming.map((e) => e.slug)).toEqual([soon.slug, later.slug]);
    expect(list.past.map((e) => e.slug)).toEqual([past.slug]);

    const page = await asResponse(
      await callRoute(eventPage, { path: `/events/${soon.slug}`, params: { slug: soon.slug } }),
    ).json<{ event: { when: string; html: string } }>();
    // The organiser's time with its zone and UTC offset (readable without JavaScript).
    // Its start and its end, on the organiser's clock.
    expect(page.event.when).toMatch(/16:00 to 18:00 \(Europe\/Berlin, UTC\+0[12]:00\)$/);
    expect(page.event.html).toContain("<strong>GaaS</strong>");

    const venture = (await callRoute(venturePage, { path: "/subsidiary/gaas", params: { id: "gaas" } })) as {
      data: { events: { slug: string }[] };
    };
    expect(venture.data.events.map((e) => e.slug)).toEqual([soon.slug]);

    const sitemap = await asResponse(await callRoute(sitemapXml, { path: "/sitemap.xml" })).text();
    for (const slug of [soon.slug, later.slug, past.slug]) expect(sitemap).toContain(`/events/${slug}</loc>`);
    expect(sitemap).toContain("/events</loc>");
  });

  it("the event's own file, the whole feed and the GaaS feed parse with ical.js: start instant, stable UID", async () => {
    const admin = await signedIn(ADMIN);
    const gaas = await create(admin, {
      title: "GaaS demo day; Q&A, drinks — and a long title that will surely need folding at 75 octets",
    });
    const group = await create(admin, { title: "Group AGM", venture: "", start: dayAt(40), end: dayAt(40, "17:00") });
    const own = await parse(
      asResponse(await callRoute(eventIcs, { path: `/events/${gaas.slug}.ics`, params: { slug: gaas.slug } })),
    );
    expect(own).toEqual([
      expect.objectContaining({
        uid: gaas.uid,
        start: berlin(dayAt(30)),
        summary: "GaaS demo day; Q&A, drinks — and a long title that will surely need folding at 75 octets",
        status: "CONFIRMED",
        url: `${ORIGIN}/events/${gaas.slug}`,
        location: "Berlin, Alexanderplatz 1",
      }),
    ]);
    // DESCRIPTION is plain text: the Markdown's words without its marks, then the links.
    expect(own[0]!.description).toBe(
      `The GaaS demo, with questions; then drinks.\n\nLink: https://example.com/webcast\n\nDetails: ${ORIGIN}/events/${gaas.slug}`,
    );
    expect((await feed()).map((e) => e.uid)).toEqual([gaas.uid, group.uid]);
    expect((await feed("gaas")).map((e) => [e.uid, e.start])).toEqual([[gaas.uid, berlin(dayAt(30))]]);
    expect(asResponse(await callRoute(eventsFeed, { path: "/events.ics?venture=nope" })).status).toBe(404);
  });

  it("answers a poll whose copy is current with 304, and a changed feed in full", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin);
    const first = asResponse(await callRoute(eventsFeed, { path: "/events.ics" }));
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = asResponse(await callRoute(eventsFeed, { path: "/events.ics", headers: { "If-None-Match": etag } }));
    expect(again.status).toBe(304);
    await change(admin, made.id, form({ location: "Hamburg" }));
    const changed = asResponse(
      await callRoute(eventsFeed, { path: "/events.ics", headers: { "If-None-Match": etag } }),
    );
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("LOCATION:Hamburg");
  });

  it("an all-day event is written as dates, its last day inclusive", async () => {
    const admin = await signedIn(ADMIN);
    const made = await create(admin, { allDay: "on", start: "2027-03-12T00:00", end: "2027-03-13T00:00" });
    const text = await asResponse(
      await callRoute(eventIcs, { path: `/events/${made.slug}.ics`, params: { slug: made.slug } }),
    ).text();
    expect(text).toContain("DTSTART;VALUE=DATE:20270312\r\n");
    expect(text).toContain("DTEND;VALUE=DATE:20270314\r\n");
  });
});

describe("event reminders", () => {
  /** A confirmed alerts lead, opted in to reminders or not. */
  async function subscriber(email: string, reminders: boolean) {
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, subscribed_at, status, topic, event_reminders) VALUES (?, '', 'alerts-events', ?, 'confirmed', 'alerts', ?)",
    )
      .bind(email, Date.now(), reminders ? 1 : 0)
      .run();
  }
  const remindersTo = async (email: string) =>
    (
      await env.DB.prepare(
        "SELECT subject, text_body AS text FROM mail_outbox WHERE recipient = ? AND kind LIKE 'alert-event-reminder-%'",
      )
        .bind(email)
        .all<{ subject: string; text: string }>()
    ).results;

  it("the alerts signup records the opt-in; the settings function sets and reads it", async () => {
    const res = asResponse(
      await callRoute(signupAction, {
        path: "/api/leads",
        form: { email: "investor@example.com", topic: "alerts", variant: "full", eventReminders: "on" },
      }),
    );
    expect(res.status).toBe(201);
    const db = getDb(env);
    expect(await eventRemindersOf(db, "investor@example.com")).toBe(true);
    expect(await setEventReminders(db, "Investor@Example.com", false)).toBe(true);
    expect(await eventRemindersOf(db, "investor@example.com")).toBe(false);
    // No alerts lead, nothing to set: subscribe to the alerts first.
    expect(await setEventReminders(db, "stranger@example.com", true)).toBe(false);
    // A newsletter signup never carries the reminders' consent.
    await callRoute(signupAction, {
      path: "/api/leads",
      form: { email: "reader@example.com", firstName: "R", eventReminders: "on" },
    });
    const reader = await env.DB.prepare(
      "SELECT event_reminders AS r FROM leads WHERE email = 'reader@example.com'",
    ).first();
    expect(reader).toEqual({ r: 0 });
  });

  it("a publish with alert ticked announces the event once to every alerts subscriber, like a news item", async () => {
    const admin = await signedIn(ADMIN);
    await subscriber("yes@example.com", true);
    await subscriber("no@example.com", false);
    const made = await create(admin, { alert: "on" });
    // Saving again (published, alert still ticked) announces nothing more.
    expect((await change(admin, made.id, form({ alert: "on", location: "Hamburg" }))).status).toBe(303);
    const mails = await env.DB.prepare("SELECT recipient, subject, text_body AS text FROM mail_outbox WHERE kind = ?")
      .bind(`alert-event-${made.id}`)
      .all<{ recipient: string; subject: string; text: string }>();
    expect(mails.results.map((m) => m.recipient).sort()).toEqual(["no@example.com", "yes@example.com"]);
    expect(mails.results[0]!.subject).toContain("GaaS demo day");
    expect(mails.results[0]!.text).toContain(`${ORIGIN}/events/${made.slug}`);
  });

  it("a verified member switches the reminders on and off in Settings, riding on the alerts", async () => {
    const cookie = await signedIn("member-reminders@example.com");
    const save = (fields: Record<string, string>) =>
      callRoute(saveSettings, { path: "/settings", form: { alertsShown: "1", ...fields }, cookie });
    await save({ alerts: "on", eventReminders: "on" });
    const view = asResponse(await callRoute(settings, { path: "/settings", cookie }));
    expect(await view.json()).toMatchObject({ alerts: true, eventReminders: true });
    await save({ alerts: "on" });
    expect(await asResponse(await callRoute(settings, { path: "/settings", cookie })).json()).toMatchObject({
      alerts: true,
      eventReminders: false,
    });
    // Reminders without the alerts are not kept.
    await save({ eventReminders: "on" });
    expect(await asResponse(await callRoute(settings, { path: "/settings", cookie })).json()).toMatchObject({
      alerts: false,
      eventReminders: false,
    });
  });

  it("reaches an opted-in subscriber exactly once, about 24 hours before; nobody else; never a cancelled event", async () => {
    const admin = await signedIn(ADMIN);
    await subscriber("yes@example.com", true);
    await subscriber("no@example.com", false);
    const tomorrow = await create(admin, { start: dayAt(1, "12:00"), end: dayAt(1, "13:00") });
    const cancelled = await create(admin, { title: "Off", start: dayAt(1, "12:00"), end: dayAt(1, "13:00") });
    const far = await create(admin, { title: "Later", start: dayAt(20), end: dayAt(20, "18:00") });
    expect((await change(admin, cancelled.id, { intent: "cancel" })).status).toBe(303);

    const startsAt = tomorrow.starts_at;
    // Two days before: nothing is due yet.
    expect(await remindDueEvents(env, startsAt - 2 * REMINDER_LEAD_MS)).toBe(0);
    // A minute inside the window, and every minute after: one reminder, once.
    const now = startsAt - REMINDER_LEAD_MS + 60_000;
    expect(await remindDueEvents(env, now)).toBe(1);
    expect(await remindDueEvents(env, now + 60_000)).toBe(0);
    expect(await remindDueEvents(env, now + 120_000)).toBe(0);
    const mails = await remindersTo("yes@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("Reminder: GaaS demo day");
    expect(mails[0]!.text).toContain(`${ORIGIN}/events/${tomorrow.slug}.ics`);
    expect(await remindersTo("no@example.com")).toEqual([]);
    const all = await env.DB.prepare("SELECT text_body AS t FROM mail_outbox").all<{ t: string }>();
    expect(all.results.some((m) => m.t.includes(cancelled.slug) || m.t.includes(far.slug))).toBe(false);
  });
});
