// The Help form, the admin's inbox and person export, client error reports, the blog and the root:
// loaders and actions called directly, with a real D1, without a build.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { action as contact, loader as help } from "~/routes/help";
import { action as markMessage, loader as inbox } from "~/routes/admin.messages";
import { action as exportPerson } from "~/routes/admin.people.export";
import { action as clientError } from "~/routes/api.client-errors";
import { loader as blog } from "~/routes/blog";
import { loader as root } from "~/root";
import { CONTACT_LIMITS } from "~/features/contact/contact-form";
import { HONEYPOT_FIELD } from "~/features/forms/honeypot";
import rssBasic from "../fixtures/feeds/rss-basic.xml?raw";
import { ADMIN, asResponse, callRoute, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM contact_messages"),
    env.DB.prepare("DELETE FROM rate_limits"),
    env.DB.prepare("DELETE FROM audit_log"),
  ]);
});

const message = { name: "Ada", email: "ada@example.com", subject: "Hello", message: "A question." };
const stored = async () => (await env.DB.prepare("SELECT * FROM contact_messages").all()).results;

describe("the Help form and the inbox", () => {
  it("the subject comes from the query, cut to its limit", async () => {
    const long = "x".repeat(CONTACT_LIMITS.subject + 5);
    const data = (await callRoute(help, { path: `/help?subject=${long}` })) as { subject: string };
    expect(data.subject).toHaveLength(CONTACT_LIMITS.subject);
  });

  it("a valid message is stored open; an invalid one is a 400 with the field's message; a honeypot stores nothing", async () => {
    const bad = asResponse(await callRoute(contact, { path: "/help", form: { ...message, email: "x" } }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Please enter a valid email address.");
    await callRoute(contact, { path: "/help", form: { ...message, [HONEYPOT_FIELD]: "spam" } });
    expect(await stored()).toHaveLength(0);
    const ok = asResponse(await callRoute(contact, { path: "/help", form: message }));
    expect(await ok.json()).toMatchObject({ sent: true });
    expect(await stored()).toEqual([expect.objectContaining({ email: "ada@example.com", status: "open" })]);
  });

  it("the inbox is the not-found page for a member; an admin lists and marks a message answered", async () => {
    await callRoute(contact, { path: "/help", form: message });
    const member = await signedIn("member@example.com");
    expect(asResponse(await callRoute(inbox, { path: "/admin/messages", cookie: member })).status).toBe(404);
    const admin = await signedIn(ADMIN);
    const list = await asResponse(await callRoute(inbox, { path: "/admin/messages", cookie: admin })).json<{
      messages: { id: number }[];
    }>();
    expect(list.messages).toHaveLength(1);
    const id = String(list.messages[0]?.id);
    const bad = asResponse(
      await callRoute(markMessage, { path: "/admin/messages", form: { id, status: "x" }, cookie: admin }),
    );
    expect(bad.status).toBe(400);
    const done = asResponse(
      await callRoute(markMessage, { path: "/admin/messages", form: { id, status: "answered" }, cookie: admin }),
    );
    expect(done.status).toBe(303);
    expect(await stored()).toEqual([expect.objectContaining({ status: "answered" })]);
  });

  it("a person's export: 403 for a member, 400 for no address, an audited file for an admin", async () => {
    const member = await signedIn("member@example.com");
    const path = "/admin/people/export";
    expect(asResponse(await callRoute(exportPerson, { path, form: { email: "a@b.c" }, cookie: member })).status).toBe(
      403,
    );
    const admin = await signedIn(ADMIN);
    expect(asResponse(await callRoute(exportPerson, { path, form: { email: "no" }, cookie: admin })).status).toBe(400);
    const res = asResponse(await callRoute(exportPerson, { path, form: { email: "ada@example.com" }, cookie: admin }));
    expect(res.status).toBe(200);
    const audit = await env.DB.prepare("SELECT action FROM audit_log").all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["person.export"]);
  });
});

describe("client errors, the blog, the root", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("a client error report: 204 when well formed, 400 otherwise, 405 for a GET", async () => {
    const path = "/api/client-errors";
    expect(asResponse(await callRoute(clientError, { path, json: { message: "boom", path: "/" } })).status).toBe(204);
    expect(asResponse(await callRoute(clientError, { path, json: { nope: 1 } })).status).toBe(400);
    expect(asResponse(await callRoute(clientError, { path, method: "GET" })).status).toBe(405);
  });

  it("the blog's loader puts the feed's posts in a document request's data", async () => {
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      new Request(input, init).url === env.BLOG_FEED_URL
        ? Promise.resolve(new Response(rssBasic, { headers: { "Content-Type": "application/rss+xml" } }))
        : realFetch(input, init),
    );
    // defer(): the data as Remix streams it, and the page's headers.
    const deferred = (await callRoute(blog, { path: "/blog" })) as unknown as {
      data: { posts: { title: string }[] };
      init: { headers: Record<string, string> };
    };
    expect(deferred.data.posts.length).toBeGreaterThan(0);
    expect(deferred.init.headers["Cache-Control"]).toMatch(/public/);
  });

  it("the root's data names the signed-in member, and nobody for a visitor", async () => {
    const visitor = await asResponse(await callRoute(root, { path: "/" })).json<{ user: unknown }>();
    expect(visitor.user).toBeNull();
    const cookie = await signedIn("member@example.com");
    const member = await asResponse(await callRoute(root, { path: "/", cookie })).json<{ user: { email: string } }>();
    expect(member.user.email).toBe("member@example.com");
  });
});
