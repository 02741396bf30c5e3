// One judge of redirect targets (app/utils/same-origin-path.ts): every path it keeps stays on the
// site (tests/unit/redirect-targets.test.ts), and the signup's redirectTo and login's returnTo go through it.
import { describe, expect, it } from "vitest";
import { ORIGIN, signIn } from "./auth-helpers";
import { postForm } from "./leads-helpers";

describe("one judge of redirect targets", () => {
  it("a signup form's redirectTo never leaves the site (the confirmed /.//evil.com case)", async () => {
    for (const target of ["/.//evil.com", "/x/..//evil.com", "/%2e%2e//evil.com", "/\\evil.com", "https://evil.com/"]) {
      const res = await postForm({
        email: `redirect-${Math.random()}@example.com`,
        firstName: "R",
        redirectTo: target,
      });
      expect(res.status, target).toBe(303);
      const location = res.headers.get("location")!;
      expect(location, target).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, ORIGIN).origin, target).toBe(ORIGIN);
    }
  });

  it("login's returnTo never leaves the site, nor lands on the API in any case", async () => {
    // Encoded twice (`%2561` → `%61` → `a`) or through an encoded dot segment: normalised first (issue 43).
    for (const target of [
      "/.//evil.com",
      "/x/..//evil.com",
      "/API/logout",
      "/Api/callback",
      "/%2561pi/logout",
      "/%61pi/logout",
      "/x/%252e%252e/api/logout",
    ]) {
      const { res } = await signIn("redirect-login@example.com", { returnTo: target });
      expect(res.headers.get("location"), target).toBe("/");
    }
  });
});
