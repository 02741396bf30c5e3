// Events through the built worker (docs/decisions/095): the calendar files as the worker answers
// them (the `/events/<slug>.ics` route beside the page's, `text/calendar`, 304s, never stored in
// the HTML cache), the pages' metadata, and the cached pages following every change at once.
import { env, SELF } from "cloudflare:test";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";

let admin: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
});

const post = (path: string, body: Record<string, string>, jar: Jar) =>
  SELF.fetch(new URL(path, ORIGIN), {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      Cookie: jar.header(),
    },
    body: new URLSearchParams(body).toString(),
    redirect: "manual",
  });

const html = (path: string) =>
  get(path, undefined, { headers: { Accept: "text/html" } }).then(async (res) => ({ res, body: await res.text() }));

/** The cache is filled after the response (waitUntil): ask until it answers from it, a few times. */
async function untilHit(path: string) {
  for (let i = 0; i < 20; i++) {
    const r = await html(path);
    if (r.res.headers.get("Server-Timing")?.includes('desc="hit"')) return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} never came from the cache`);
}

const DAY = 86_400_000;
const at = (days: number, time: string) => `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T${time}`;

const fields = (title: string, days = 14, location = "Berlin") => ({
  title,
  description: "A *webcast* for investors.",
  start: at(days, "16:00"),
  end: at(days, "17:30"),
  timezone: "Europe/Berlin",
  location,
  url: "https://example.com/webcast",
  venture: "gaas",
  publish: "on",
});

async function create(title: string): Promise<{ id: number; slug: string; uid: string }> {
  const res = await post("/admin/events", fields(title), admin);
  expect(res.status, await res.clone().text()).toBe(303);
  const id = Number(res.headers.get("Location")!.split("/").pop());
  return (await env.DB.prepare("SELECT id, slug, uid FROM events WHERE id = ?").bind(id).first())!;
}

const vevents = (text: string) =>
  new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));

describe("calendar files through the worker", () => {
  it("/events/<slug>.ics and the feeds are text/calendar, parse with ical.js, answer 304, and are never cached as HTML", async () => {
    const { slug, uid } = await create(`Worker webcast ${crypto.randomUUID().slice(0, 6)}`);
    const own = await get(`/events/${slug}.ics`);
    expect(own.status).toBe(200);
    expect(own.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const [event] = vevents(await own.text());
    expect(event!.uid).toBe(uid);
    const row = await env.DB.prepare("SELECT starts_at FROM events WHERE uid = ?")
      .bind(uid)
      .first<{ starts_at: number }>();
    expect(event!.startDate.toJSDate().getTime()).toBe(row!.starts_at);
    for (const path of ["/events.ics", "/events.ics?venture=gaas"]) {
      const res = await get(path);
      expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
      expect(res.headers.get("Server-Timing") ?? "").not.toContain('desc="hit"');
      const etag = res.headers.get("ETag")!;
      expect(vevents(await res.text()).map((e) => e.uid)).toContain(uid);
      expect((await get(path, undefined, { headers: { "If-None-Match": etag } })).status).toBe(304);
    }
    // The page's own route still answers the page.
    const page = await html(`/events/${slug}`);
    expect(page.res.headers.get("Content-Type")).toContain("text/html");
    expect(page.body).toContain(`href="/events/${slug}.ics"`);
    const ld = [...page.body.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) =>
      JSON.parse(m[1]!),
    );
    expect(ld).toContainEqual(
      expect.objectContaining({ "@type": "Event", eventStatus: "https://schema.org/EventScheduled" }),
    );
  });

  it("the cached pages and the feeds follow an edit and a cancellation at once", async () => {
    const title = `Cached webcast ${crypto.randomUUID().slice(0, 6)}`;
    const { id, slug, uid } = await create(title);
    // Stored in the HTML cache for visitors…
    for (const path of ["/events", `/events/${slug}`, "/subsidiary/gaas"]) {
      expect((await html(path)).body).toContain(title);
      expect((await untilHit(path)).body).toContain(title);
    }
    // …and an edit purges them.
    expect((await post(`/admin/events/${id}`, fields(title, 14, "Hamburg Messe"), admin)).status).toBe(303);
    for (const path of ["/events", `/events/${slug}`, "/subsidiary/gaas"])
      expect((await html(path)).body, path).toContain("Hamburg Messe");
    expect(await (await get("/events.ics")).text()).toContain("LOCATION:Hamburg Messe");
    expect((await post(`/admin/events/${id}`, { intent: "cancel" }, admin)).status).toBe(303);
    expect((await html(`/events/${slug}`)).body).toContain("Cancelled. This event will not take place");
    const cancelled = vevents(await (await get("/events.ics?venture=gaas")).text()).find((e) => e.uid === uid)!;
    expect(cancelled.component.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(cancelled.sequence).toBe(2);
  });
});
