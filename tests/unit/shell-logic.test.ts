import { describe, expect, it } from "vitest";
import { filterVentures, isActivePath } from "~/components/shell/nav-links";
import {
  KeySequence,
  KONAMI,
  matchShortcut as matchIn,
  normalizedKey,
  RAINBOW,
  shortcutsFor,
  type KeyLike,
} from "~/components/shell/shortcuts";
import { nextSidebarState, readSidebarCookie, sidebarCookie } from "~/components/shell/sidebar-state";
import { userDisplayName, userInitials } from "~/features/auth/user";
import { STARTING_VENTURES } from "~/content/ventures";
import { expectDefined } from "../fixtures/expect-defined";

// The shell's pure logic; the browser suite (tests/e2e/shell-*.test.ts) covers the behaviour.
describe("avatar initials (sidebar)", () => {
  it("uses first and last initials, else the e-mail's first letter, else U", () => {
    expect(userInitials({ firstName: "ada", lastName: "Lovelace", email: "x@example.com" })).toBe("AL");
    expect(userInitials({ firstName: "Ada", lastName: null, email: "zed@example.com" })).toBe("Z");
    expect(userInitials({ firstName: null, lastName: "Lovelace", email: "zed@example.com" })).toBe("Z");
    expect(userInitials({ firstName: "  ", lastName: " ", email: " mia@example.com" })).toBe("M");
    expect(userInitials({ firstName: null, lastName: null, email: null })).toBe("U");
    expect(userInitials({ firstName: "Ada", lastName: null, email: "" })).toBe("U");
    expect(userInitials(null)).toBe("U");
  });
  it("shows the full name, else the e-mail, else User", () => {
    expect(userDisplayName({ firstName: "Ada", lastName: "Lovelace", email: "a@x.io" })).toBe("Ada Lovelace");
    expect(userDisplayName({ firstName: "Ada", lastName: null, email: "a@x.io" })).toBe("Ada");
    expect(userDisplayName({ firstName: null, lastName: null, email: "a@x.io" })).toBe("a@x.io");
    expect(userDisplayName({ firstName: null, lastName: null, email: null })).toBe("User");
  });
});

describe("sidebar state", () => {
  it("cycles icon → expanded → hidden → icon", () => {
    expect(nextSidebarState("icon")).toBe("expanded");
    expect(nextSidebarState("expanded")).toBe("hidden");
    expect(nextSidebarState("hidden")).toBe("icon");
  });
  it("reads the cookie; anything unknown is expanded", () => {
    expect(readSidebarCookie("a=1; sidebar_state=icon; b=2")).toBe("icon");
    expect(readSidebarCookie("sidebar_state=hidden")).toBe("hidden");
    expect(readSidebarCookie("sidebar_state=true")).toBe("expanded");
    expect(readSidebarCookie("other_sidebar_state=icon")).toBe("expanded");
    expect(readSidebarCookie(null)).toBe("expanded");
  });
  it("writes a 7-day cookie", () => {
    expect(sidebarCookie("icon")).toBe("sidebar_state=icon; Path=/; Max-Age=604800; SameSite=Lax");
  });
});

describe("navigation helpers", () => {
  it("filters subsidiaries by case-insensitive substring of name or tagline", () => {
    expect(filterVentures(STARTING_VENTURES, "GAAS").map((s) => s.id)).toEqual(["gaas"]);
    expect(filterVentures(STARTING_VENTURES, "journalism").map((s) => s.id)).toEqual(["snews"]);
    expect(filterVentures(STARTING_VENTURES, "  ")).toHaveLength(STARTING_VENTURES.length);
    expect(filterVentures(STARTING_VENTURES, "no such venture")).toEqual([]);
  });
  it("counts / and /home as home", () => {
    expect(isActivePath("/", "/home")).toBe(true);
    expect(isActivePath("/", "/")).toBe(true);
    expect(isActivePath("/", "/blog")).toBe(false);
    expect(isActivePath("/documents", "/documents/x")).toBe(true);
    expect(isActivePath("/documents", "/documentsx")).toBe(false);
  });
});

const key = (k: Partial<KeyLike>): KeyLike => ({
  key: "",
  code: "",
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...k,
});

describe("shortcut matching", () => {
  // The seeded portfolio (the root loader's ventures, tests/server/venture-routes.test.ts).
  const seeded = shortcutsFor(STARTING_VENTURES);
  const matchShortcut = (e: KeyLike) => matchIn(e, seeded);
  it("matches Ctrl or Cmd, Shift variants, Alt digits by code, and plain Space", () => {
    expect(matchShortcut(key({ key: "p", code: "KeyP", ctrlKey: true }))?.action).toEqual({
      type: "navigate",
      to: "/portfolio",
    });
    expect(matchShortcut(key({ key: "p", code: "KeyP", metaKey: true }))?.action).toEqual({
      type: "navigate",
      to: "/portfolio",
    });
    expect(matchShortcut(key({ key: "S", code: "KeyS", ctrlKey: true, shiftKey: true }))?.action).toEqual({
      type: "navigate",
      to: "/settings",
    });
    expect(matchShortcut(key({ key: "¡", code: "Digit1", altKey: true }))?.action).toEqual({
      type: "navigate",
      to: `/subsidiary/${expectDefined(STARTING_VENTURES[0]).id}`,
    });
    expect(
      matchShortcut(key({ key: "©", code: "KeyG", ctrlKey: true, shiftKey: true, altKey: true }))?.action.type,
    ).toBe("toast");
    expect(matchShortcut(key({ key: " ", code: "Space" }))?.action).toEqual({ type: "open-shortcuts" });
  });
  it("ignores unmodified letters and extra modifiers", () => {
    expect(matchShortcut(key({ key: "p", code: "KeyP" }))).toBeUndefined();
    expect(matchShortcut(key({ key: "p", code: "KeyP", ctrlKey: true, altKey: true }))).toBeUndefined();
    expect(matchShortcut(key({ key: "1", code: "Digit1", ctrlKey: true, altKey: true }))).toBeUndefined();
    expect(matchShortcut(key({ key: " ", code: "Space", ctrlKey: true }))).toBeUndefined();
    // Cmd+Shift+Alt+G is not god mode: it is Ctrl itself (docs/product.md, Keyboard shortcuts).
    expect(matchShortcut(key({ key: "g", code: "KeyG", metaKey: true, shiftKey: true, altKey: true }))).toBeUndefined();
  });
  it("Alt + N is the Nth venture of the list it is given: a shorter or reordered list moves or drops it", () => {
    const [a, b, c] = STARTING_VENTURES;
    const alt = (n: number) => key({ key: String(n), code: `Digit${n}`, altKey: true });
    expect(matchShortcut(alt(9))?.action).toEqual({ type: "navigate", to: `/subsidiary/${STARTING_VENTURES[8]?.id}` });
    const fewer = shortcutsFor([expectDefined(c), expectDefined(b)]);
    expect(matchIn(alt(1), fewer)?.action).toEqual({ type: "navigate", to: `/subsidiary/${expectDefined(c).id}` });
    expect(matchIn(alt(2), fewer)?.label).toBe(expectDefined(b).name);
    expect(matchIn(alt(3), fewer)).toBeUndefined();
    expect(fewer.some((s) => s.action.type === "navigate" && s.action.to.endsWith(`/${expectDefined(a).id}`))).toBe(
      false,
    );
    // Only nine digits: a tenth venture has no key.
    const ten = [...STARTING_VENTURES, { id: "tenth", name: "Tenth" }];
    expect(shortcutsFor(ten).filter((s) => s.keys.startsWith("Alt + "))).toHaveLength(9);
  });
  it("normalizes keys by code", () => {
    expect(normalizedKey({ key: "Q", code: "KeyQ" })).toBe("q");
    expect(normalizedKey({ key: "Escape", code: "Escape" })).toBe("Escape");
  });
});

describe("key sequences", () => {
  const feed = (seq: KeySequence, keys: string[]) => keys.map((k) => seq.push(k));
  it("completes on the exact sequence and resets on a wrong key", () => {
    expect(feed(new KeySequence(KONAMI), KONAMI).at(-1)).toBe(true);
    const rainbow = new KeySequence(RAINBOW);
    expect(feed(rainbow, [..."rainbxow"]).some(Boolean)).toBe(false);
    expect(feed(rainbow, [..."RAINBOW"]).at(-1)).toBe(true);
    // A wrong key that starts the sequence counts as its first key.
    expect(feed(new KeySequence(RAINBOW), [..."rarainbow"]).at(-1)).toBe(true);
  });
});
