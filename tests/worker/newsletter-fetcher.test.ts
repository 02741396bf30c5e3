import { env, SELF } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { NEWSLETTER_TEXT, SIGNUP_FIELDS as F } from "~/features/leads/newsletter";
import { confirmAll, inOneWindow, leadRows, nextAddress, ORIGIN, typedValues } from "./leads-helpers";

// The signup form with JavaScript: Remix's fetcher posts the form's own fields, less redirectTo,
// to `/api/leads?_data=routes/api.leads` and reads the answer as data (app/features/leads/newsletter-signup.tsx).

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM leads"), env.DB.prepare("DELETE FROM rate_limits")]);
});

const fields = (over: Record<string, string> = {}) => ({
  [F.email]: "ada@example.com",
  [F.firstName]: "Ada",
  lastName: "",
  [F.source]: "blog",
  [F.variant]: "full",
  [F.honeypot]: "",
  ...over,
});

/** The fetcher's request, as Remix's client sends it. */
function fetcherPost(body: Record<string, string>, ip = nextAddress()) {
  return SELF.fetch(`${ORIGIN}/api/leads?_data=${encodeURIComponent("routes/api.leads")}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": ip,
      Referer: `${ORIGIN}/blog?page=2`,
    },
    body: new URLSearchParams(body).toString(),
    redirect: "manual",
  });
}

describe("POST /api/leads from the signup form's fetcher", () => {
  it("answers the result as data under the API's status: 201, then 409 for a confirmed address, no redirect", async () => {
    const first = await fetcherPost(
      fields({ [F.referrer]: "https://search.example/", [F.timestamp]: "2026-11-21T12:00:00.000Z" }),
    );
    expect(first.status).toBe(201);
    expect(first.headers.get("Location")).toBeNull();
    expect(await first.json()).toEqual({ source: "blog", status: "success" });
    // The page is the fetch's Referer; the referrer and clock are what the browser added.
    expect(await leadRows()).toEqual([
      expect.objectContaining({
        page_path: "/blog?page=2",
        referrer: "https://search.example/",
        client_timestamp: "2026-11-21T12:00:00.000Z",
      }),
    ]);

    await confirmAll();
    const repeat = await fetcherPost(fields({ [F.email]: "ADA@example.com" }));
    expect(repeat.status).toBe(409);
    expect(await repeat.json()).toEqual({
      source: "blog",
      status: "already",
      values: typedValues({ email: "ADA@example.com", firstName: "Ada" }),
    });
  });

  it("400 with field errors and the typed values; 429 with the limiter's message and Retry-After", async () => {
    const invalid = await fetcherPost(fields({ [F.email]: "ada-at-example", [F.firstName]: "" }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      source: "blog",
      status: "error",
      values: typedValues({ email: "ada-at-example" }),
      errors: { email: [NEWSLETTER_TEXT.invalidEmail], firstName: [NEWSLETTER_TEXT.firstNameRequired] },
    });

    const ip = "203.0.113.77";
    await inOneWindow(async () => {
      for (let i = 0; i < 10; i++) await fetcherPost(fields({ [F.email]: `f${i}@example.com` }), ip);
      const limited = await fetcherPost(fields({ [F.email]: "late@example.com" }), ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({
        status: "error",
        values: { email: "late@example.com" },
        message: expect.stringContaining("Too many"),
      });
    });
  });
});
