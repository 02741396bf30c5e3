import { env, SELF } from "cloudflare:test";
import { SIGNUP_TEXT_FIELD_NAMES } from "~/features/leads/signup.server";

export const ORIGIN = "https://afx.test";

let address = 0;
/** A fresh client address per call, so the rate limit only counts where a test means it to. */
export const nextAddress = () => `198.51.100.${(address++ % 250) + 1}`;

export function postJson(body: unknown, { ip = nextAddress(), headers = {} as Record<string, string> } = {}) {
  return SELF.fetch(`${ORIGIN}/api/leads`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    redirect: "manual",
  });
}

export function postForm(
  fields: Record<string, string>,
  { ip = nextAddress(), referer }: { ip?: string; referer?: string } = {},
) {
  return SELF.fetch(`${ORIGIN}/api/leads`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": ip,
      ...(referer ? { Referer: referer } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

export const signup = (over: Record<string, unknown> = {}) => ({
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  source: "footer",
  metadata: { userAgent: "TestAgent/1.0", referrer: "https://search.example/", timestamp: "2026-11-21T12:00:00.000Z" },
  ...over,
});

/** Confirms every pending lead, as if each had pressed its e-mail's button. */
export async function confirmAll() {
  await env.DB.prepare("UPDATE leads SET status = 'confirmed', confirmed_at = ?1 WHERE status = 'pending'")
    .bind(Date.now())
    .run();
}

export async function leadRows() {
  const { results } = await env.DB.prepare("SELECT * FROM leads ORDER BY id").all<Record<string, unknown>>();
  return results;
}

const DAY = 24 * 60 * 60 * 1000;

/** Inserts leads directly, `ago` ms before `now`; confirmed unless a status is given. */
export async function insertLeads(
  rows: {
    email: string;
    source?: string;
    ago?: number;
    firstName?: string;
    lastName?: string | null;
    status?: "pending" | "confirmed" | "unsubscribed";
  }[],
  now = Date.now(),
) {
  await env.DB.batch(
    rows.map((r) =>
      env.DB.prepare(
        "INSERT INTO leads (email, first_name, last_name, source, subscribed_at, status) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(
        r.email,
        r.firstName ?? "Test",
        r.lastName ?? null,
        r.source ?? "footer",
        now - (r.ago ?? 0),
        r.status ?? "confirmed",
      ),
    ),
  );
}

export { DAY };

/**
 * The values a form's signup carries back (typed, untrimmed): e-mail, first name and each optional
 * text field SIGNUP_TEXT_FIELDS declares, blank unless given, so a new declared field edits no test.
 */
export const typedValues = (given: Record<string, string>) => ({
  email: "",
  firstName: "",
  ...Object.fromEntries(SIGNUP_TEXT_FIELD_NAMES.map((name) => [name, ""])),
  ...given,
});

/** The limiter's fixed window under the suite's LEADS_RATE_LIMIT ("10/600"). */
export const LIMIT_WINDOW_MS = 600_000;

/**
 * Runs `test` again (once, after `reset`) when a fixed window of the limit ended during it: a
 * count of attempts that straddles a window's end starts over, and on a loaded machine the
 * eleven requests of a limit test may take long enough to straddle one.
 */
export async function inOneWindow(
  test: () => Promise<void>,
  {
    windowMs = LIMIT_WINDOW_MS,
    reset = () => env.DB.prepare("DELETE FROM rate_limits").run(),
  }: { windowMs?: number; reset?: () => Promise<unknown> } = {},
) {
  const windowOf = () => Math.floor(Date.now() / windowMs);
  const start = windowOf();
  try {
    await test();
  } catch (error) {
    if (windowOf() === start) throw error;
    await reset();
    await test();
  }
}
