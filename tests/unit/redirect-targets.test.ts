// One judge of redirect targets (app/utils/same-origin-path.ts): every path it keeps stays on the
// site. That the signup and the login go through it: tests/worker/redirect-targets.test.ts.
import { describe, expect, it } from "vitest";
import { sameOriginPath } from "~/utils/same-origin-path";
import { ORIGIN } from "../fixtures/origin";

describe("one judge of redirect targets", () => {
  it.each([
    ["/portfolio", "/portfolio"],
    ["/a/b?c=1#d", "/a/b?c=1#d"],
    ["/a/./b/../c", "/a/c"],
    ["/%2e%2e/portfolio", "/portfolio"],
    ["/a%2fb", "/a%2fb"],
  ])("keeps the same-origin path %s as %s", (input, expected) => {
    expect(sameOriginPath(input, ORIGIN)).toBe(expected);
  });

  it.each([
    "/.//evil.com",
    "/./\\evil.com",
    "/x/..//evil.com",
    "/%2e//evil.com",
    "/%2E%2E//evil.com",
    "/x/%2e%2e//evil.com",
    "//evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r\n/evil.com",
    "/%2f/evil.com",
    "/%5cevil.com",
    " /evil.com",
    "https://evil.com/",
    "https:evil.com",
    "http://afx.test/",
    "javascript:alert(1)",
    "data:text/html,x",
    "evil.com",
    "",
    null,
  ])("refuses %j", (input) => {
    expect(sameOriginPath(input, ORIGIN)).toBeNull();
  });
});
