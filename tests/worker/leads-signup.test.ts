import { env, SELF } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { LEAD_LIMITS, NEWSLETTER_TEXT, SIGNUP_FIELDS, SIGNUP_TEXT_FIELDS } from "~/features/leads/newsletter";
import { readSignupResult } from "~/features/leads/signup-result.server";
import { confirmAll, inOneWindow, leadRows, ORIGIN, postForm, postJson, signup, typedValues } from "./leads-helpers";
import { handleSignup, SIGNUP_TEXT_FIELD_NAMES } from "~/features/leads/signup.server";
import { expectDefined } from "../fixtures/expect-defined";
import { leads } from "~/db/schema";
import { LISTED } from "~/features/leads/lead-list.server";
import { getDb } from "~/utils/db.server";

const clear = () => env.DB.batch([env.DB.prepare("DELETE FROM leads"), env.DB.prepare("DELETE FROM rate_limits")]);
beforeEach(clear);

describe("POST /api/leads (JSON)", () => {
  it("answers 201 with the lead (not its sequential id) and stores it normalised, with its metadata", async () => {
    const res = await postJson(signup({ email: "  Ada@Example.COM " }), { headers: { Referer: `${ORIGIN}/blog?x=1` } });
    expect(res.status).toBe(201);
    const lead = await res.json<Record<string, unknown>>();
    // The listed fields (LISTED), no more: no id.
    expect(Object.keys(lead).sort()).toEqual(Object.keys(LISTED).sort());
    expect(lead).toMatchObject({
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      source: "footer",
      subscribedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const [row] = await leadRows();
    expect(row).toMatchObject({
      email: "ada@example.com",
      user_agent: "TestAgent/1.0",
      referrer: "https://search.example/",
      client_timestamp: "2026-11-21T12:00:00.000Z",
      page_path: "/blog?x=1",
    });
  });

  it("answers 409 { message } for a repeat of a confirmed address, ignoring case and spaces, and changes nothing", async () => {
    expect((await postJson(signup())).status).toBe(201);
    await confirmAll();
    const res = await postJson(signup({ email: " ADA@example.com", firstName: "Someone else" }));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "Email already subscribed" });
    const rows = await leadRows();
    expect(rows).toHaveLength(1);
    expect(expectDefined(rows[0]).first_name).toBe("Ada");
  });

  it("never creates two rows for concurrent repeats", async () => {
    // A pending address answers every repeat like a first signup (docs/decisions/016).
    const statuses = await Promise.all(
      ["x@example.com", "X@example.com", " x@EXAMPLE.com", "x@example.COM"].map(
        async (email) => (await postJson(signup({ email }))).status,
      ),
    );
    expect(statuses.sort()).toEqual([201, 201, 201, 201]);
    expect(await leadRows()).toHaveLength(1);
    await confirmAll();
    const again = await Promise.all(
      ["y@example.com", "x@example.com", " X@example.com"].map(
        async (email) => (await postJson(signup({ email }))).status,
      ),
    );
    expect(again.sort()).toEqual([201, 409, 409]);
    expect(await leadRows()).toHaveLength(2);
  });

  it("answers 400 with the newsletter's messages per field", async () => {
    const res = await postJson(signup({ email: "not-an-email", firstName: "  " }));
    expect(res.status).toBe(400);
    const body = await res.json<{ message: string; errors: Record<string, string[]> }>();
    expect(body.errors.email).toEqual(["Please enter a valid email address."]);
    expect(body.errors.firstName).toEqual(["First name is required."]);
    expect(typeof body.message).toBe("string");
    expect(await leadRows()).toHaveLength(0);
  });

  it.each([
    ["a missing e-mail", { email: undefined }, "email", NEWSLETTER_TEXT.invalidEmail],
    ["an e-mail that is not text", { email: 42 }, "email", NEWSLETTER_TEXT.invalidEmail],
    [
      "an e-mail over 254 characters",
      { email: `${"a".repeat(250)}@example.com` },
      "email",
      `${NEWSLETTER_TEXT.invalidEmail} An address can be at most 254 characters.`,
    ],
    ["a missing first name", { firstName: undefined }, "firstName", NEWSLETTER_TEXT.firstNameRequired],
    ["a first name over 100 characters", { firstName: "A".repeat(101) }, "firstName", NEWSLETTER_TEXT.firstNameTooLong],
    ["a last name over 100 characters", { lastName: "B".repeat(101) }, "lastName", NEWSLETTER_TEXT.lastNameTooLong],
    ["a source that is not a short name", { source: "<script>" }, "source", NEWSLETTER_TEXT.invalidSource],
    ["a source over 40 characters", { source: "s".repeat(41) }, "source", NEWSLETTER_TEXT.invalidSource],
  ])("400 for %s", async (_, over, field, message) => {
    const res = await postJson(signup(over));
    expect(res.status).toBe(400);
    expect((await res.json<{ errors: Record<string, string[]> }>()).errors[field]).toEqual([message]);
  });

  it("keeps unknown sources as given and the last name optional", async () => {
    const res = await postJson(signup({ source: "Partner_Site-2", lastName: undefined }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ source: "Partner_Site-2", lastName: null });
  });

  it("the compact variant needs no first name (docs/decisions/003)", async () => {
    const res = await postJson({ email: "c@example.com", source: "footer", variant: "compact" });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ firstName: "" });
    // Other variants keep the rule.
    expect((await postJson({ email: "d@example.com", source: "blog", variant: "full" })).status).toBe(400);
  });

  it("stores client metadata as bounded text and ignores junk in it", async () => {
    const res = await postJson(
      signup({ metadata: { userAgent: "<b>x</b>".repeat(200), referrer: { evil: true }, timestamp: 12345 } }),
      { headers: { "User-Agent": "HeaderAgent" } },
    );
    expect(res.status).toBe(201);
    const row = expectDefined((await leadRows())[0], "the lead");
    expect(row.user_agent).toBe("<b>x</b>".repeat(200).slice(0, 512));
    expect(row.referrer).toBeNull();
    expect(row.client_timestamp).toBeNull();
  });

  it("413 past 8 KiB, whether or not Content-Length says so", async () => {
    const big = JSON.stringify(signup({ lastName: "x".repeat(LEAD_LIMITS.bodyBytes) }));
    const res = await postJson(big);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: expect.stringContaining("8 KiB") });
    // A streamed body without a length is cut off too.
    const stream = new Blob([big]).stream();
    const chunked = await SELF.fetch(`${ORIGIN}/api/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: stream,
      // @ts-expect-error workerd's fetch needs this for a stream body
      duplex: "half",
    });
    expect(chunked.status).toBe(413);
    expect(await leadRows()).toHaveLength(0);
  });

  it.each(["text/plain", "application/xml", ""])("415 for Content-Type %j", async (type) => {
    const res = await SELF.fetch(`${ORIGIN}/api/leads`, {
      method: "POST",
      headers: type ? { "Content-Type": type } : {},
      body: type ? JSON.stringify(signup()) : null,
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });

  it.each(["{not json", "[1,2]", "null", '"text"'])("400 for malformed JSON %j", async (body) => {
    const res = await postJson(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.stringContaining("JSON") });
  });

  it("a filled honeypot gets a fake success and stores nothing", async () => {
    const res = await postJson(signup({ [SIGNUP_FIELDS.honeypot]: "http://spam.example" }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ email: "ada@example.com" });
    expect(await leadRows()).toHaveLength(0);
  });

  it("429 with a clear message and Retry-After past the per-client limit", async () => {
    const ip = "203.0.113.7";
    await inOneWindow(
      async () => {
        for (let i = 0; i < 10; i++) {
          expect((await postJson(signup({ email: `r${i}@example.com` }), { ip })).status).toBe(201);
        }
        const res = await postJson(signup({ email: "r10@example.com" }), { ip });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
        expect((await res.json<{ message: string }>()).message).toMatch(
          /^Too many signup attempts .* Please try again in \d+ minutes?\.$/,
        );
        // Another client is not affected.
        expect((await postJson(signup({ email: "other@example.com" }), { ip: "203.0.113.8" })).status).toBe(201);
        expect(await leadRows()).toHaveLength(11);
      },
      { reset: clear },
    );
  });

  it("405 for other methods", async () => {
    const res = await SELF.fetch(`${ORIGIN}/api/leads`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(405);
  });
});

describe("POST /api/leads (form without JavaScript)", () => {
  const form = (over: Record<string, string> = {}) => ({
    email: "grace@example.com",
    firstName: "Grace",
    lastName: "",
    source: "blog",
    variant: "full",
    redirectTo: "/blog",
    [SIGNUP_FIELDS.honeypot]: "",
    ...over,
  });

  /** The result the redirect carries, as the root loader of the next page reads it. */
  async function carried(res: Response) {
    const [cookie = ""] = res.headers.get("Set-Cookie")!.split(";");
    return (await readSignupResult(env, new Request(ORIGIN, { headers: { Cookie: cookie } }))).result;
  }

  async function followedPage(res: Response) {
    const [cookie = ""] = res.headers.get("Set-Cookie")!.split(";");
    const page = await SELF.fetch(new URL(res.headers.get("Location")!, ORIGIN), { headers: { Cookie: cookie } });
    return { page, html: await page.text() };
  }

  it("303s back to the same-origin page, which shows the success text once", async () => {
    const res = await postForm(form());
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/blog#newsletter-blog");
    expect(await leadRows()).toEqual([
      expect.objectContaining({ email: "grace@example.com", source: "blog", page_path: "/blog" }),
    ]);
    expect(await carried(res)).toEqual({ source: "blog", status: "success" });
    const { page } = await followedPage(res);
    // The result is consumed: its cookie is cleared.
    expect(page.headers.get("Set-Cookie")).toMatch(/afx_signup=;.*Max-Age=0/);
  });

  it("carries field errors and typed values across the redirect", async () => {
    const res = await postForm(form({ email: "grace-at-example", firstName: "", lastName: "Hopper" }));
    expect(res.status).toBe(303);
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=60/);
    expect(await leadRows()).toHaveLength(0);
    expect(await carried(res)).toEqual({
      source: "blog",
      status: "error",
      values: typedValues({ email: "grace-at-example", lastName: "Hopper" }),
      errors: { email: [NEWSLETTER_TEXT.invalidEmail], firstName: [NEWSLETTER_TEXT.firstNameRequired] },
    });
  });

  // A field declared in SIGNUP_TEXT_FIELDS alone is read, validated, echoed and stored (065).
  it.each(SIGNUP_TEXT_FIELD_NAMES)(
    "the declared optional field %s: refused past its limit with the value kept, stored trimmed, blank as null",
    async (name) => {
      const { max, tooLong } = SIGNUP_TEXT_FIELDS[name];
      const long = "x".repeat(max + 1);
      expect(await carried(await postForm(form({ [name]: long })))).toEqual({
        source: "blog",
        status: "error",
        values: expect.objectContaining({ [name]: long }),
        errors: { [name]: [tooLong] },
      });
      expect((await postForm(form({ email: "a@example.com", [name]: "  Value  " }))).status).toBe(303);
      expect((await postForm(form({ email: "b@example.com", [name]: "  " }))).status).toBe(303);
      const rows = await getDb(env).select().from(leads).orderBy(leads.id);
      expect(rows.map((row) => row[name])).toEqual(["Value", null]);
    },
  );

  it("a repeat of a confirmed address lands back with the values kept", async () => {
    expect((await postForm(form())).status).toBe(303);
    await confirmAll();
    const res = await postForm(form({ email: "GRACE@example.com " }));
    expect(res.status).toBe(303);
    expect(await leadRows()).toHaveLength(1);
    expect(await carried(res)).toEqual({
      source: "blog",
      status: "already",
      values: typedValues({ email: "GRACE@example.com ", firstName: "Grace" }),
    });
  });

  it.each([
    ["//evil.example/x", "/"],
    ["https://evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["/portfolio?a=1", "/portfolio?a=1"],
  ])("redirectTo %j lands on %j (same origin only)", async (redirectTo, path) => {
    const res = await postForm(form({ redirectTo }));
    expect(res.headers.get("Location")).toBe(`${path}#newsletter-blog`);
  });

  it("falls back to the Referer's same-origin path", async () => {
    const res = await postForm(form({ redirectTo: "" }), { referer: `${ORIGIN}/investors` });
    expect(res.headers.get("Location")).toBe("/investors#newsletter-blog");
  });

  it("a filled honeypot lands on the success text and stores nothing", async () => {
    const res = await postForm(form({ [SIGNUP_FIELDS.honeypot]: "spam" }));
    expect(res.status).toBe(303);
    expect(await carried(res)).toEqual({ source: "blog", status: "success" });
    expect(await leadRows()).toHaveLength(0);
  });

  it("accepts multipart forms too", async () => {
    const body = new FormData();
    for (const [k, v] of Object.entries(form({ email: "multi@example.com" }))) body.set(k, v);
    const res = await SELF.fetch(`${ORIGIN}/api/leads`, { method: "POST", body, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(await leadRows()).toEqual([expect.objectContaining({ email: "multi@example.com" })]);
  });

  it("past the rate limit the page shows the message, values kept", async () => {
    const ip = "203.0.113.50";
    await inOneWindow(
      async () => {
        for (let i = 0; i < 10; i++) await postForm(form({ email: `f${i}@example.com` }), { ip });
        const res = await postForm(form({ email: "late@example.com" }), { ip });
        expect(res.status).toBe(303);
        expect(await carried(res)).toMatchObject({
          status: "error",
          values: { email: "late@example.com" },
          message: expect.stringContaining("Too many signup attempts"),
        });
        expect(await leadRows()).toHaveLength(10);
      },
      { reset: clear },
    );
  });
});

describe("the signup's answer", () => {
  it("the 201 answer to a signup does not expose the sequential id", async () => {
    const res = await handleSignup(
      new Request(`${ORIGIN}/api/leads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.200" },
        body: JSON.stringify({ email: "no-id@example.com", firstName: "N" }),
      }),
      env,
    );
    expect(res.status).toBe(201);
    expect(await res.json()).not.toHaveProperty("id");
  });
});
