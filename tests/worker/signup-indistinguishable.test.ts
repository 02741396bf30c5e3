// A signup of an address that left the list (erased, "this wasn't me", complained) or bounced
// answers exactly as one of a new address (docs/decisions/019-personal-data.md): the same status,
// body, headers and Server-Timing entries, through the JSON API and the form without JavaScript.
// Before issue 43, Server-Timing named each statement: a suppressed address showed only
// `insert rate_limits`, a new one `insert leads` and the confirmation batch.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { suppressStatements } from "~/features/privacy/suppression.server";
import { batch, getDb } from "~/utils/db.server";
import { insertLeads, postForm, postJson, signup } from "./leads-helpers";

beforeEach(async () => {
  await env.DB.batch(
    ["rate_limits", "mail_outbox", "newsletter_tokens", "confirmation_counts", "leads", "suppressed_emails"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
});

/** Everything a client sees of a response, with the address and what differs by nature (a date, a signature) masked. */
async function visible(res: Response, email: string) {
  const mask = (text: string) =>
    text
      .replaceAll(email, "<email>")
      .replaceAll(encodeURIComponent(email), "<email>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>");
  const headers = [...res.headers]
    .filter(([name]) => name !== "date" && name !== "set-cookie")
    .map(([name, value]) => {
      if (name === "server-timing") return [name, value.replace(/dur=[\d.]+/g, "dur=<ms>")] as const;
      if (name === "content-security-policy") return [name, value.replace(/'nonce-[^']+'/g, "'nonce'")] as const;
      return [name, mask(value)] as const;
    });
  // A cookie's name and attributes; its value is signed or a bookmark either way.
  const cookies = res.headers.getSetCookie().map((c) => c.replace(/=[^;]*/, "=<value>"));
  return { status: res.status, headers, cookies, body: mask(await res.text()) };
}

/** Addresses of one length each (Content-Length is compared too). */
const fresh = (n: number) => `fresh-${n}@example.com`;

/** Each way an address leaves the list, or cannot be mailed, set up as the app leaves it. */
const LEFT: Record<string, (email: string) => Promise<void>> = {
  erased: async (email) => void (await batch(getDb(env), await suppressStatements(env, email, "erased"))),
  "not me": async (email) => {
    await insertLeads([{ email, status: "unsubscribed" }]);
    await batch(getDb(env), await suppressStatements(env, email, "not-me"));
  },
  complained: async (email) => {
    await insertLeads([{ email, status: "unsubscribed" }]);
    await batch(getDb(env), await suppressStatements(env, email, "complaint"));
  },
  bounced: async (email) => {
    await insertLeads([{ email }]);
    await env.DB.prepare("UPDATE leads SET status = 'undeliverable' WHERE email = ?").bind(email).run();
  },
};

describe("a signup of an address that left answers as a new one's", () => {
  it.each(Object.keys(LEFT))("%s: JSON API and form post, compared field by field", async (how) => {
    const gone = `g-${how.replace(" ", "")}`.padEnd(6, "x").slice(0, 6);
    let n = 0;
    for (const send of [
      (email: string) => postJson(signup({ email })),
      (email: string) =>
        postForm({ email, firstName: "Ada", source: "footer", redirectTo: "/" }, { referer: "https://afx.test/" }),
    ]) {
      n++;
      const left = `${gone}${n}@example.com`;
      const other = fresh(n);
      expect(left.length).toBe(other.length);
      await LEFT[how]!(left);
      const a = await visible(await send(other), other);
      const b = await visible(await send(left), left);
      expect(a.status).toBe(n === 1 ? 201 : 303);
      expect(b).toEqual(a);
      // Server-Timing names the phases only: the worker, then the action.
      const timing = a.headers.find(([name]) => name === "server-timing")?.[1];
      expect(timing).toBe('worker;dur=<ms>;desc="bypass", action;dur=<ms>;desc="routes/api.leads"');
    }
  });

  it("the new address is stored and mailed; the suppressed one gets neither", async () => {
    await LEFT.erased!("gone-1@example.com");
    await postJson(signup({ email: fresh(9) }));
    await postJson(signup({ email: "gone-1@example.com" }));
    const leads = await env.DB.prepare("SELECT email FROM leads").all<{ email: string }>();
    expect(leads.results.map((r) => r.email)).toEqual([fresh(9)]);
    const mail = await env.DB.prepare("SELECT recipient FROM mail_outbox").all<{ recipient: string }>();
    expect(mail.results.map((r) => r.recipient)).toEqual([fresh(9)]);
  });
});
