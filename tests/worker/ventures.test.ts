// The portfolio's catalogue through the built worker (issue 50, docs/ventures.md): an admin without
// JavaScript (plain multipart POSTs, redirects followed by hand) changes FiscalMe, and a visitor's
// cached pages follow at once (docs/decisions/090); the logo's address; the video's frame and CSP.
// The forms' rules one by one: tests/server/venture-routes.test.ts.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";

const ID = "fiscal-me";
const ADMIN_PAGE = `/admin/ventures/${ID}`;
const PAGES = ["/", "/portfolio", `/subsidiary/${ID}`];
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

const page = (path: string) => get(path, undefined, { headers: { Accept: "text/html" } });
const timing = (res: Response) => res.headers.get("Server-Timing") ?? "";

let admin: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com")).jar;
});

/** The edit form as a browser without JavaScript posts it, from the admin's page. */
async function save(fields: Record<string, string>, logo?: File, headers: Record<string, string> = {}) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("logo", logo ?? new File([], "", { type: "application/octet-stream" }));
  const res = await get(ADMIN_PAGE, admin, {
    method: "POST",
    body,
    headers: {
      Host: new URL(ORIGIN).host,
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-origin",
      Accept: "text/html",
      ...headers,
    },
  });
  admin.update(res);
  return res;
}

/** The admin page's form fields as they stand (the no-JavaScript browser sends them back). */
async function currentFields(): Promise<Record<string, string>> {
  const row = await env.DB.prepare(
    "SELECT name, tagline, description, stage, website, video FROM ventures WHERE id = ?",
  )
    .bind(ID)
    .first<Record<string, string | null>>();
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, v ?? ""]));
}

describe("the ventures catalogue through the worker", () => {
  it("an admin's tagline and stage reach a visitor's cached /, /portfolio and venture page at once", async () => {
    // Each page cached for visitors first.
    for (const path of PAGES) {
      await (await page(path)).arrayBuffer();
      await expect.poll(async () => timing(await page(path))).toMatch(/desc="hit"/);
    }
    const adminRes = await get(ADMIN_PAGE, admin, { headers: { Accept: "text/html" } });
    const html = await adminRes.text();
    // One multipart form with exactly the fields, a select of the stage names.
    expect(html.match(/enctype="multipart\/form-data"/gi)).toHaveLength(1);
    expect(html).toContain('<option value="beta-testing">Beta Testing</option>');
    expect(html).toMatch(/<input[^>]*type="file"[^>]*name="logo"|<input[^>]*name="logo"[^>]*type="file"/);
    const started = Date.now();
    const res = await save({
      ...(await currentFields()),
      tagline: "Your books, done by Monday",
      stage: "beta-testing",
    });
    expect(res.status).toBe(303);
    for (const path of PAGES) {
      const seen = await page(path);
      const text = await seen.text();
      expect(text, path).toContain("Your books, done by Monday");
      expect(text, path).toContain("Beta Testing");
    }
    expect(Date.now() - started).toBeLessThan(65_000);
    // The announce box is offered, unticked.
    const offered = await (await get(`${ADMIN_PAGE}?announce=1`, admin, { headers: { Accept: "text/html" } })).text();
    expect(offered).toMatch(/<input type="checkbox" name="announce"\/>\s*Announce this change/);
  });

  it("a PNG logo is served with its bytes, image/png and nosniff, and drawn with width and height", async () => {
    expect((await save(await currentFields(), new File([PNG], "logo.png", { type: "image/png" }))).status).toBe(303);
    const html = await (await page(`/subsidiary/${ID}`)).text();
    const src = html.match(/<img[^>]*src="(\/ventures\/logos\/[0-9a-f]{64}\.png)"[^>]*>/);
    expect(src?.[0]).toMatch(/width="48"/);
    expect(src?.[0]).toMatch(/height="48"/);
    const logo = await get(src![1]!);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("Content-Type")).toBe("image/png");
    expect(logo.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(logo.headers.get("Content-Security-Policy")).toBe("sandbox");
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(PNG);
  });

  it("an SVG named logo.png is refused with the accepted types named, and nothing new is served", async () => {
    const before = await env.DB.prepare("SELECT logo FROM ventures WHERE id = ?").bind(ID).first<string | null>("logo");
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], "logo.png", { type: "image/png" });
    const res = await save(await currentFields(), svg);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("PNG, JPEG or WebP");
    expect(await env.DB.prepare("SELECT logo FROM ventures WHERE id = ?").bind(ID).first("logo")).toBe(before);
  });

  it("a YouTube id set in video is framed on the venture page and allowed by its CSP", async () => {
    expect((await save({ ...(await currentFields()), video: "AFXtestVid2" })).status).toBe(303);
    const res = await page(`/subsidiary/${ID}`);
    const html = await res.text();
    expect(html).toContain('src="https://www.youtube-nocookie.com/embed/AFXtestVid2"');
    const frameSrc = (res.headers.get("Content-Security-Policy") ?? "")
      .split("; ")
      .find((d) => d.startsWith("frame-src"));
    expect(frameSrc?.split(" ")).toContain("https://www.youtube-nocookie.com");
  });

  it("a cross-site POST changes nothing", async () => {
    const before = await currentFields();
    const res = await save({ ...before, tagline: "Forged" }, undefined, {
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(res.status).toBe(403);
    expect(await currentFields()).toEqual(before);
  });
});
