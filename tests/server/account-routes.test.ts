// Sign-in, the session and the member's own pages, their loaders and actions called directly.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { loader as login } from "~/routes/api.login";
import { loader as callback } from "~/routes/api.callback";
import { loader as authUser } from "~/routes/api.auth.user";
import { action as logoutAction, loader as logoutLink } from "~/routes/api.logout";
import { action as saveSettings, loader as settings } from "~/routes/settings";
import { action as downloadData, loader as dataPage } from "~/routes/settings_.data";
import { action as deleteAccount, loader as deletePage } from "~/routes/settings_.delete";
import { ACCOUNT_PATHS, DELETE_MISMATCH } from "~/features/privacy/account-forms";
import { asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM sessions"),
    env.DB.prepare("DELETE FROM users"),
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM rate_limits"),
  ]);
});

const sessionCount = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions").first<{ n: number }>())?.n ?? 0;

describe("sign-in and the session", () => {
  it("/api/login sends a visitor to the provider, a signed-in member straight to a safe returnTo", async () => {
    const res = asResponse(await callRoute(login, { path: "/api/login" }));
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("Location") ?? "").searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/callback`);
    const cookie = await signedIn("member@example.com");
    const back = asResponse(await callRoute(login, { path: "/api/login?returnTo=/settings", cookie }));
    expect(back.headers.get("Location")).toBe("/settings");
    const unsafe = asResponse(await callRoute(login, { path: "/api/login?returnTo=//evil.example", cookie }));
    expect(unsafe.headers.get("Location")).toBe("/");
  });

  it("/api/callback without the flow's state cookie starts no session", async () => {
    const res = asResponse(await callRoute(callback, { path: "/api/callback?code=x&state=y" }));
    expect(res.status).toBeLessThan(500);
    expect(res.headers.getSetCookie().some((c) => c.includes("afx_session=") && !/max-age=0/i.test(c))).toBe(false);
    expect(await sessionCount()).toBe(0);
  });

  it("/api/auth/user: 401 without a session, the member with one", async () => {
    expect(asResponse(await callRoute(authUser, { path: "/api/auth/user" })).status).toBe(401);
    const cookie = await signedIn("member@example.com", "Ada Lovelace");
    const res = asResponse(await callRoute(authUser, { path: "/api/auth/user", cookie }));
    expect(await res.json()).toMatchObject({ email: "member@example.com", firstName: "Ada", role: "member" });
  });

  it("signing out ends the session (GET link and POST form); 'everywhere' ends every session", async () => {
    const first = await signedIn("member@example.com");
    const second = await signedIn("member@example.com");
    expect(await sessionCount()).toBe(2);
    const res = asResponse(await callRoute(logoutLink, { path: "/api/logout", cookie: first }));
    expect(res.headers.get("Location")).toBe("/");
    expect(await sessionCount()).toBe(1);
    const third = await signedIn("member@example.com");
    const everywhere = asResponse(
      await callRoute(logoutAction, { path: "/api/logout", form: { everywhere: "on" }, cookie: third }),
    );
    expect(everywhere.status).toBe(302);
    expect(await sessionCount()).toBe(0);
    expect(second).not.toBe(third);
  });
});

describe("the member's settings", () => {
  it("the settings page shows the member's e-mail; saving the newsletter on subscribes it", async () => {
    const cookie = await signedIn("member@example.com");
    const view = asResponse(await callRoute(settings, { path: "/settings", cookie }));
    expect(JSON.stringify(await view.json())).toContain("member@example.com");
    const saved = asResponse(await callRoute(saveSettings, { path: "/settings", form: { newsletter: "on" }, cookie }));
    expect(saved.status).toBe(200);
    const lead = await env.DB.prepare("SELECT status FROM leads WHERE email = 'member@example.com'").first();
    expect(lead).toMatchObject({ status: "confirmed" });
  });

  it("a visitor saving settings is told to sign in, and nothing is stored", async () => {
    const res = asResponse(await callRoute(saveSettings, { path: "/settings", form: { newsletter: "on" } }));
    expect((await res.json<{ message: string }>()).message).toMatch(/Sign in/);
    expect(await env.DB.prepare("SELECT 1 FROM leads").first()).toBeNull();
  });

  it("'Download my data': 401 for a visitor, the member's JSON for a member; a GET goes back to settings", async () => {
    expect(asResponse(await callRoute(dataPage, { path: ACCOUNT_PATHS.downloadData })).headers.get("Location")).toBe(
      "/settings",
    );
    expect(asResponse(await callRoute(downloadData, { path: ACCOUNT_PATHS.downloadData, form: {} })).status).toBe(401);
    const cookie = await signedIn("member@example.com");
    const res = asResponse(await callRoute(downloadData, { path: ACCOUNT_PATHS.downloadData, form: {}, cookie }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("member@example.com");
  });

  it("'Delete Account' asks a visitor to sign in, refuses another address, erases the account on its own", async () => {
    const away = asResponse(await callRoute(deletePage, { path: ACCOUNT_PATHS.deleteAccount }));
    expect(away.headers.get("Location")).toMatch(/^\/api\/login\?returnTo=/);
    const cookie = await signedIn("member@example.com");
    const wrong = asResponse(
      await callRoute(deleteAccount, {
        path: ACCOUNT_PATHS.deleteAccount,
        form: { email: "other@example.com" },
        cookie,
      }),
    );
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(await wrong.json())).toContain(DELETE_MISMATCH);
    expect(await env.DB.prepare("SELECT 1 FROM users").first()).not.toBeNull();
    const done = asResponse(
      await callRoute(deleteAccount, {
        path: ACCOUNT_PATHS.deleteAccount,
        form: { email: " Member@Example.com " },
        cookie,
      }),
    );
    expect(done.status).toBeGreaterThanOrEqual(300);
    expect(done.status).toBeLessThan(400);
    expect(await env.DB.prepare("SELECT 1 FROM users").first()).toBeNull();
    expect(await sessionCount()).toBe(0);
  });
});
