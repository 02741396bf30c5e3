// The one cookie rule (app/utils/cookies.server.ts), checked on every Set-Cookie the app sends in
// its cookie-setting flows: sign-in (both legs, success and failure), renewal, logout, sign out
// everywhere, the flash toast, the no-JS signup result and a used confirmation link, on https and on plain-http loopback.
import { createCookie } from "@remix-run/cloudflare";
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COOKIES, signedCookie } from "~/utils/cookies.server";
import { randomToken, sha256Hex } from "~/utils/crypto.server";
import { atProvider, Jar, ORIGIN } from "./auth-helpers";

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

/** Walks every flow that sets cookies on `origin` and returns each Set-Cookie line it saw. */
async function everySetCookie(origin: string, email: string): Promise<string[]> {
  const seen: string[] = [];
  const jar = new Jar();
  const fetch = async (path: string, init: RequestInit = {}) => {
    const res = await SELF.fetch(`${origin}${path}`, {
      redirect: "manual",
      ...init,
      headers: { Cookie: jar.header(), "CF-Connecting-IP": "192.0.2.99", ...(init.headers as Record<string, string>) },
    });
    await res.arrayBuffer();
    seen.push(...res.headers.getSetCookie());
    jar.update(res);
    return res;
  };
  // A failed sign-in (flash toast), shown on the next page (flash cleared).
  await fetch("/api/callback?code=x&state=y");
  await fetch("/");
  // A whole sign-in.
  const login = await fetch("/api/login?returnTo=/portfolio");
  const callback = await atProvider(new URL(login.headers.get("location")!), email);
  await fetch(callback.pathname + callback.search);
  // A no-JS newsletter signup (result cookie), shown and cleared on the page it lands on.
  const address = `${Math.random()}@example.com`;
  await fetch("/api/leads", form({ email: address, firstName: "C", redirectTo: "/blog" }));
  await fetch("/blog");
  // Its confirmation link pressed (the just-confirmed cookie), with a token of our own for the lead.
  const token = randomToken();
  await env.DB.prepare(
    "INSERT INTO newsletter_tokens (token_hash, lead_id, created_at) SELECT ?, id, ? FROM leads WHERE email = ?",
  )
    .bind(await sha256Hex(token), Date.now(), address)
    .run();
  await fetch(`/newsletter/confirm/${token}`, form({}));
  // Logout, then sign-in again and sign out everywhere (flash toast).
  await fetch("/api/logout");
  const again = await fetch("/api/login");
  const back = await atProvider(new URL(again.headers.get("location")!), email);
  await fetch(back.pathname + back.search);
  await fetch("/api/logout", form({ everywhere: "on" }));
  return seen;
}

const SITE_WIDE = Object.values(COOKIES).filter((name) => name !== COOKIES.room);

function parse(line: string) {
  const [pair = "", ...attrs] = line.split(";").map((s) => s.trim());
  const name = pair.slice(0, pair.indexOf("="));
  return { name, attrs: attrs.map((a) => a.toLowerCase()) };
}

describe("every cookie the server sets follows the one rule", () => {
  it.each([
    ["https://afx.test", true],
    ["http://localhost:8787", false],
  ])("on %s", async (origin, secure) => {
    const lines = await everySetCookie(origin, `cookie-rule-${secure}@example.com`);
    const bases = new Set<string>();
    for (const line of lines) {
      const { name, attrs } = parse(line);
      const base = name.replace(/^__Host-/, "").replace(/:.*$/, "");
      bases.add(base);
      expect(SITE_WIDE, line).toContain(base);
      expect(name.startsWith("__Host-"), line).toBe(secure);
      expect(attrs.includes("secure"), line).toBe(secure);
      expect(attrs, line).toContain("path=/");
      expect(attrs, line).toContain("httponly");
      expect(attrs, line).toContain("samesite=lax");
      expect(
        attrs.some((a) => a.startsWith("domain=")),
        line,
      ).toBe(false);
    }
    // The walk really met every site-wide cookie of the registry. The investor room's session is
    // scoped to /rooms/ by its own rule (docs/rooms.md); tests/server/room-routes.test.ts holds it.
    expect([...bases].sort()).toEqual(SITE_WIDE.sort());
  });
});

describe("a mangled signed cookie is no cookie", () => {
  // Remix's own parse throws on a signature that is not base64; every signed cookie of ours reads
  // such a value as missing (cookies.server.ts signedCookie), so the page answers as for a stranger.
  it.each(["afx_session", "afx_flash", "afx_signup", "afx_return_to", "afx_d1_bookmark", "afx_confirmed"])(
    "%s=0000-0000: the pages still answer",
    async (name) => {
      for (const path of ["/", "/settings", "/api/auth/user"]) {
        const res = await SELF.fetch(`${ORIGIN}${path}`, {
          headers: { Cookie: `__Host-${name}=0000-0000`, Accept: "text/html" },
          redirect: "manual",
        });
        await res.arrayBuffer();
        expect(res.status, `${path} with ${name}`).toBeLessThan(500);
      }
    },
  );
});

describe("the cookie signer (crypto.server.ts cookieSigner, keys imported once)", () => {
  // Cookies set before it (by @remix-run/cloudflare's own signer) must still read: no member is
  // signed out by a deploy, and the reverse holds too.
  const secrets = ["test-secret-new", "test-secret-old"];
  const config = { ...env, SESSION_SECRET: secrets.join(",") } as Env;
  const ours = () => signedCookie(new Request("https://afx.test/"), config, COOKIES.flash, 60);
  const adapters = (signWith: string[]) => createCookie("__Host-afx_flash", { secrets: signWith });

  it("reads what the adapter signed, with the current or the previous secret, and the adapter reads ours", async () => {
    const value = { message: "Ünïcode ✓", n: 42 };
    for (const signWith of [secrets, secrets.slice(1)]) {
      const [header = ""] = (await adapters(signWith).serialize(value)).split(";");
      await expect(ours().parse(header)).resolves.toEqual(value);
    }
    const [header = ""] = (await ours().serialize(value)).split(";");
    await expect(adapters(secrets).parse(header)).resolves.toEqual(value);
    // Byte for byte the adapter's format.
    expect(header).toBe((await adapters(secrets).serialize(value)).split(";")[0]);
  });

  it("refuses a value signed with another secret, or with its signature changed", async () => {
    const [header = ""] = (await adapters(["someone-else"]).serialize("x")).split(";");
    await expect(ours().parse(header)).resolves.toBeNull();
    const [good = ""] = (await ours().serialize("x")).split(";");
    // The signature's first character (the last may only carry padding bits).
    const dot = good.lastIndexOf(".");
    const tampered = good.slice(0, dot + 1) + (good[dot + 1] === "A" ? "B" : "A") + good.slice(dot + 2);
    expect(tampered).not.toBe(good);
    await expect(ours().parse(tampered)).resolves.toBeNull();
  });
});
