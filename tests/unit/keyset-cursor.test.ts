import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "~/features/leads/lead-list.server";
import { inboxPath, parseInboxQuery } from "~/features/contact/inbox";
import { keysetCursor } from "~/utils/keyset-cursor";

// The one cursor format of the site's lists: `<time>.<id>`, read back exactly, anything else told apart.
describe("keyset cursor", () => {
  const cursor = keysetCursor("at");

  it("round-trips a position, under the list's own time key", () => {
    expect(cursor.encode({ at: 1764000000123, id: 42 })).toBe("1764000000123.42");
    expect(cursor.decode("1764000000123.42")).toEqual({ at: 1764000000123, id: 42 });
  });

  it("tells a missing cursor (null) from one no list gave out", () => {
    for (const missing of [null, undefined, ""]) expect(cursor.decode(missing)).toBeNull();
    for (const bad of ["nope", "1.2.3", "-1.2", "1.", ".2", "1234567890123456.1", " 1.2"])
      expect(cursor.decode(bad)).toBe("invalid");
  });

  it("is the leads' and the inbox's format", () => {
    expect(encodeCursor({ subscribedAt: 5, id: 6 })).toBe("5.6");
    expect(decodeCursor("5.6")).toEqual({ subscribedAt: 5, id: 6 });
    expect(decodeCursor("x")).toBe("invalid");
    expect(inboxPath({ cursor: { createdAt: 5, id: 6 } })).toBe("/admin/messages?cursor=5.6");
    expect(parseInboxQuery(new URLSearchParams("cursor=5.6")).cursor).toEqual({ createdAt: 5, id: 6 });
    // The inbox is a list, never an error: a cursor it did not give out reads as none.
    expect(parseInboxQuery(new URLSearchParams("cursor=x")).cursor).toBeNull();
  });
});
