// The one signed-link helper (features/mail/signed-link.server.ts): every mailed token link is
// signed and read by it: each kind its own key, an expiring kind refused after its time, and a
// token of one kind never read as another's. The unsubscribe and preferences tokens keep their
// format, so links mailed before it still work (tests/server/mail-keys.test.ts).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { preferencesToken, readPreferencesToken } from "~/features/alerts/preferences.server";
import { readUnsubscribeToken, unsubscribeToken } from "~/features/leads/subscription.server";
import { mailKeys } from "~/features/mail/keys.server";
import { linkId, readLink, signLink, type LinkKind } from "~/features/mail/signed-link.server";

const INVITATION: LinkKind = { purpose: "invitation-link", label: "test-invitation", ttlMs: 60 * 60 * 1000 };
const FOREVER: LinkKind = { purpose: "forever-link", label: "test-forever" };
const NOW = Date.UTC(2026, 0, 1);

describe("signed links", () => {
  it("reads back the subject it signed, under the kind's own key", async () => {
    const token = await signLink(env, FOREVER, 42);
    expect(token).toMatch(new RegExp(`^42\\.${(await mailKeys(env, "forever-link"))[0]!.id}\\.[A-Za-z0-9_-]{43}$`));
    expect(await readLink(env, FOREVER, token)).toBe("42");
    expect(linkId(await readLink(env, FOREVER, token))).toBe(42);
    expect(await readLink(env, { ...FOREVER, label: "another" }, token)).toBeNull();
    expect(await readLink(env, { ...FOREVER, purpose: "other-link" }, token)).toBeNull();
    for (const bad of [token.replace(/^42\./, "43."), `${token.slice(0, -1)}A`, "42", "", `x.${token}`])
      expect(await readLink(env, FOREVER, bad), bad).toBeNull();
  });

  it("an expiring kind carries its end, signed, and is refused after it", async () => {
    const token = await signLink(env, INVITATION, "room-7", NOW);
    const [, expires] = token.split(".");
    expect(Number(expires) * 1000).toBe(NOW + INVITATION.ttlMs!);
    expect(await readLink(env, INVITATION, token, NOW + INVITATION.ttlMs! - 1000)).toBe("room-7");
    expect(await readLink(env, INVITATION, token, NOW + INVITATION.ttlMs!)).toBeNull();
    // A later end written in is not signed; the same token without its end is another kind's.
    expect(
      await readLink(env, INVITATION, token.replace(`.${expires}.`, `.${Number(expires) + 3600}.`), NOW),
    ).toBeNull();
    expect(await readLink(env, { ...INVITATION, ttlMs: undefined }, token, NOW)).toBeNull();
    expect(linkId(await readLink(env, INVITATION, token, NOW))).toBeNull();
  });

  it("the unsubscribe and preferences tokens are two kinds: neither reads as the other", async () => {
    const unsubscribe = await unsubscribeToken(env, 5);
    const preferences = await preferencesToken(env, 5);
    expect(unsubscribe).not.toBe(preferences);
    expect([await readUnsubscribeToken(env, unsubscribe), await readPreferencesToken(env, preferences)]).toEqual([
      5, 5,
    ]);
    expect([await readUnsubscribeToken(env, preferences), await readPreferencesToken(env, unsubscribe)]).toEqual([
      null,
      null,
    ]);
  });

  it("refuses a subject it could not read back", async () => {
    await expect(signLink(env, FOREVER, "a.b")).rejects.toThrow(/subject/);
  });
});
