import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES } from "~/content/pages";
import { SITE } from "~/content/site";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";
import { insertLeads } from "./leads-helpers";

// The one admin guard (app/features/auth/guard.server.ts) on every admin page and form: anyone but
// an admin gets the not-found page, its title and status, and nothing of the page.
let admin: Jar;
let member: Jar;
let leadPage: string;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
  member = (await signIn("guard-page-member@example.com")).jar;
  await insertLeads([{ email: "guarded-lead@example.com" }]);
  const { id } = (await env.DB.prepare("SELECT id FROM leads WHERE email = 'guarded-lead@example.com'").first<{
    id: number;
  }>())!;
  leadPage = `/admin/leads/${id}`;
});

const post = (path: string, body: Record<string, string>, jar?: Jar) =>
  SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    // Host as a browser sends it: Remix compares it with Origin before any action runs.
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      ...(jar ? { Cookie: jar.header() } : {}),
    },
    body: new URLSearchParams(body).toString(),
    redirect: "manual",
  });

const title = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1];

describe("admin pages", () => {
  const paths = () => [...ADMIN_PAGES.map((p) => p.path), leadPage];

  it("are the not-found page (404, its title and heading) for anonymous visitors and members", async () => {
    for (const path of paths()) {
      for (const jar of [undefined, member]) {
        const res = await get(path, jar);
        expect(res.status, path).toBe(404);
        const html = await res.text();
        expect(title(html), path).toBe(`Page Not Found | ${SITE.name}`);
        expect(html).toMatch(/<h1[^>]*>Page Not Found<\/h1>/);
        expect(html).not.toContain("guarded-lead@example.com");
      }
    }
  });

  it("render for an admin, under their own titles", async () => {
    for (const path of paths()) {
      const res = await get(path, admin);
      expect(res.status, path).toBe(200);
      expect(title(await res.text()), path).not.toContain("Page Not Found");
    }
  });

  it("refuse a form post from anyone but an admin with 404, and change nothing", async () => {
    const { id } = (await env.DB.prepare("SELECT id FROM leads WHERE email = 'guarded-lead@example.com'").first<{
      id: number;
    }>())!;
    for (const jar of [undefined, member]) {
      expect((await post(leadPage, { intent: "unsubscribe" }, jar)).status).toBe(404);
      expect((await post("/admin/messages", { id: "1", status: "answered" }, jar)).status).toBe(404);
    }
    expect(await env.DB.prepare("SELECT status FROM leads WHERE id = ?").bind(id).first()).toEqual({
      status: "confirmed",
    });
  });
});

describe("the sidebar's admin entries", () => {
  it("link every admin page, under its title, for an admin only", async () => {
    const links = (html: string) =>
      ADMIN_PAGES.filter((p) =>
        new RegExp(`<a[^>]*href="${p.path}"[^>]*>[\\s\\S]*?${p.title}[\\s\\S]*?</a>`).test(html),
      );
    expect(links(await (await get("/portfolio", admin)).text())).toEqual(ADMIN_PAGES);
    expect(links(await (await get("/portfolio", member)).text())).toEqual([]);
    expect(links(await (await get("/portfolio")).text())).toEqual([]);
  });
});
