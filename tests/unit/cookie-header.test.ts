import { describe, expect, it } from "vitest";
import { parseCookieHeader } from "~/utils/cookie-header";

// The Cookie header is read by several readers per request (the HTML cache key, the session, the
// flash, the sidebar): it is parsed once and the jar reused while the header is the same.
describe("parseCookieHeader", () => {
  it("parses once per header: the same header gives the same jar", () => {
    const header = "a=1; b=2; a=3";
    const first = parseCookieHeader(header);
    expect(parseCookieHeader(header)).toBe(first);
    expect([...first]).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("a different header (or none) is parsed afresh, never answered from the last one", () => {
    expect(parseCookieHeader("a=1").get("a")).toBe("1");
    expect(parseCookieHeader("a=2").get("a")).toBe("2");
    expect(parseCookieHeader(null).size).toBe(0);
    expect(parseCookieHeader(undefined).size).toBe(0);
    expect(parseCookieHeader("a=2").get("a")).toBe("2");
  });

  it("keeps the first of two values with the same name, and names without a value", () => {
    const jar = parseCookieHeader(" x = 1 ;flag; x=2; =skipped");
    expect(jar.get("x")).toBe("1");
    expect(jar.get("flag")).toBe("");
    expect(jar.has("")).toBe(false);
  });
});
