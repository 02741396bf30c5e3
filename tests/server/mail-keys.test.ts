// The mail's own keys (issue 25): unsubscribe links and the suppression list are keyed by
// MAIL_SECRET through purpose-specific derived keys with ids, so rotating the cookie secret
// changes nothing of them, and rotating a mail key keeps what the old one signed working while it
// stays listed.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { readUnsubscribeToken, unsubscribeToken } from "~/features/leads/subscription.server";
import { isSuppressed, suppressStatements } from "~/features/privacy/suppression.server";
import { hmacSign } from "~/utils/crypto.server";
import { mailKeys } from "~/features/mail/keys.server";
import { configProblems } from "../../worker/production-config";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";
import { batch, getDb } from "~/utils/db.server";

const withVars = (vars: Record<string, string>) => ({ ...env, ...vars }) as Env;
const TOKEN = /^(\d+)\.([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{43})$/;

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM suppressed_emails").run();
});

describe("mail keys", () => {
  it("an unsubscribe link names its key and is signed with a key derived for that purpose alone", async () => {
    const token = await unsubscribeToken(env, 42);
    const [, id, keyId, signature] = TOKEN.exec(token)!;
    expect(id).toBe("42");
    expect(keyId).toBe((await mailKeys(env, "unsubscribe-link"))[0]!.id);
    // Neither secret used raw, nor another purpose's key, makes the same signature.
    for (const secret of ["test-mail-secret", "test-session-secret"])
      expect(await hmacSign(secret, "newsletter-unsubscribe:42")).not.toBe(signature);
    expect(await (await mailKeys(env, "suppressed-email"))[0]!.sign("newsletter-unsubscribe:42")).not.toBe(signature);
    expect(await readUnsubscribeToken(env, token)).toBe(42);
    // Altered: another lead, another key id, a changed signature.
    for (const bad of [
      token.replace(/^42\./, "43."),
      `42.AAAAAAAA.${signature}`,
      `42.${keyId}.${signature!.slice(1)}A`,
    ]) {
      expect(await readUnsubscribeToken(env, bad), bad).toBeNull();
    }
  });

  it("rotating SESSION_SECRET (the cookies' key) changes no unsubscribe link and no suppression entry", async () => {
    const token = await unsubscribeToken(env, 7);
    const legacyToken = `7.${await hmacSign("test-session-secret", "newsletter-unsubscribe:7")}`;
    await batch(getDb(env), await suppressStatements(env, "rotate-me@example.com", "erased"));
    const rotated = withVars({ SESSION_SECRET: "a-brand-new-cookie-secret" });
    expect(await readUnsubscribeToken(rotated, token)).toBe(7);
    // A link of before issue 25 keeps working too: its secret is kept at the end of MAIL_SECRET.
    expect(await readUnsubscribeToken(rotated, legacyToken)).toBe(7);
    expect(await isSuppressed(rotated, "rotate-me+x@example.com")).toBe(true);
    expect(await unsubscribeToken(rotated, 7)).toBe(token);
  });

  it("rotating MAIL_SECRET: the new key signs, what the old one signed works while it is listed, and not after", async () => {
    const oldToken = await unsubscribeToken(env, 9);
    await batch(getDb(env), await suppressStatements(env, "kept@example.com", "erased"));
    const { key_id: oldKeyId } = (await env.DB.prepare("SELECT key_id FROM suppressed_emails").first<{
      key_id: string;
    }>())!;
    expect(oldKeyId).toBe(TOKEN.exec(oldToken)![2]);

    const rotated = withVars({ MAIL_SECRET: "the-new-mail-secret,test-mail-secret,test-session-secret" });
    const newToken = await unsubscribeToken(rotated, 9);
    expect(TOKEN.exec(newToken)![2]).not.toBe(oldKeyId);
    expect(await readUnsubscribeToken(rotated, oldToken)).toBe(9);
    expect(await readUnsubscribeToken(rotated, newToken)).toBe(9);
    expect(await isSuppressed(rotated, "kept@example.com")).toBe(true);
    // New entries name the new key.
    await batch(getDb(env), await suppressStatements(rotated, "new@example.com", "erased"));
    const { results } = await env.DB.prepare("SELECT key_id FROM suppressed_emails ORDER BY created_at, key_id").all<{
      key_id: string;
    }>();
    expect(new Set(results.map((r) => r.key_id))).toEqual(new Set([oldKeyId, TOKEN.exec(newToken)![2]]));

    // The old key removed: its links and entries are void (docs/operate.md, rotating secrets says when that is safe).
    const retired = withVars({ MAIL_SECRET: "the-new-mail-secret" });
    expect(await readUnsubscribeToken(retired, oldToken)).toBeNull();
    expect(await readUnsubscribeToken(retired, newToken)).toBe(9);
    expect(await isSuppressed(retired, "kept@example.com")).toBe(false);
    expect(await isSuppressed(retired, "new@example.com")).toBe(true);
  });

  it("production refuses to serve without a MAIL_SECRET of its own", () => {
    const good = GOOD_PRODUCTION_VARS;
    expect(configProblems(withVars(good))).toEqual([]);
    for (const [value, problem] of [
      ["", /MAIL_SECRET is not set/],
      ["local-development-mail-secret-change-me", /MAIL_SECRET is the example value/],
      ["short", /MAIL_SECRET is shorter than 32/],
    ] as const) {
      expect(configProblems(withVars({ ...good, MAIL_SECRET: value }))).toEqual([expect.stringMatching(problem)]);
    }
  });
});
