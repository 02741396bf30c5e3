import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, signIn } from "./auth-helpers";
import { eq } from "drizzle-orm";
import { users } from "~/db/schema";
import { getDb } from "~/utils/db.server";

// Settings' newsletter switch for a signed-in member: it really subscribes and unsubscribes the
// member's e-mail in `leads` (issue 6 asks for a real subscription).
const save = (jar: Parameters<typeof get>[1], fields: Record<string, string>) =>
  get("/settings", jar, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const newsletterSwitch = (html: string) => html.match(/<input[^>]*role="switch"[^>]*name="newsletter"[^>]*>/)![0];
/** The e-mail's lead while it is on the list (unsubscribing keeps the row, marked unsubscribed). */
const leadsFor = (email: string) =>
  env.DB.prepare("SELECT email, first_name AS firstName, source FROM leads WHERE email = ? AND status = 'confirmed'")
    .bind(email)
    .all();

describe("settings for a signed-in member", () => {
  it("shows the member's read-only username and e-mail, newsletter off", async () => {
    const { jar } = await signIn("Reader@Example.com", { name: "Rita Reader" });
    const html = await (await get("/settings", jar)).text();
    const field = (id: string) => html.match(new RegExp(`<input id="${id}"[^>]*>`))![0];
    expect(field("settings-username")).toContain('value="Rita Reader"');
    expect(field("settings-email")).toContain('value="reader@example.com"');
    for (const id of ["settings-username", "settings-email"]) expect(field(id)).toMatch(/\sdisabled=""/);
    expect(newsletterSwitch(html)).not.toMatch(/\sdisabled=""/);
    expect(newsletterSwitch(html)).not.toMatch(/\schecked=""/);
  });

  it("'Save Changes' with the newsletter on subscribes the e-mail, off unsubscribes it", async () => {
    const { jar } = await signIn("saver@example.com", { name: "Sam Saver" });
    let res = await save(jar, { darkMode: "on", newsletter: "on" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("saver@example.com is subscribed to our newsletter.");
    expect((await leadsFor("saver@example.com")).results).toEqual([
      { email: "saver@example.com", firstName: "Sam", source: "settings" },
    ]);
    expect(newsletterSwitch(await (await get("/settings", jar)).text())).toMatch(/\schecked=""/);

    // Saving again changes nothing (one row per e-mail).
    await save(jar, { newsletter: "on" });
    expect((await leadsFor("saver@example.com")).results).toHaveLength(1);

    res = await save(jar, { darkMode: "on" });
    expect(await res.text()).toContain("saver@example.com is not subscribed to our newsletter.");
    expect((await leadsFor("saver@example.com")).results).toEqual([]);
    expect(newsletterSwitch(await (await get("/settings", jar)).text())).not.toMatch(/\schecked=""/);
  });

  it("an e-mail already subscribed from the footer shows as on", async () => {
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, status) VALUES ('footer@example.com', 'F', 'footer', 'confirmed')",
    ).run();
    const { jar } = await signIn("footer@example.com");
    expect(newsletterSwitch(await (await get("/settings", jar)).text())).toMatch(/\schecked=""/);
  });
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

describe("settings act only on a verified e-mail", () => {
  it("an unverified e-mail cannot be subscribed (403, nothing stored) and the switch says why", async () => {
    const { jar } = await signIn("unverified@example.com");
    await getDb(env).update(users).set({ emailVerified: false }).where(eq(users.email, "unverified@example.com"));
    const res = await get("/settings", jar, form({ newsletter: "on" }));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("has not confirmed that this e-mail address is yours");
    const { results } = await env.DB.prepare("SELECT 1 FROM leads WHERE email = 'unverified@example.com'").all();
    expect(results).toHaveLength(0);
    const page = await (await get("/settings", jar)).text();
    expect(page.match(/<input[^>]*role="switch"[^>]*name="newsletter"[^>]*>/)![0]).toMatch(/\sdisabled=""/);
  });
});
