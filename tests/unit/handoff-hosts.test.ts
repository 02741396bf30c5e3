import { describe, expect, it } from "vitest";
import { IMPORT_COLUMNS, parseCsv, recogniseExport } from "~/features/handoff/hosts";
import { filePostRequest } from "~/utils/file-posts";

// The hand-off's pure parts (issue 52): reading a host's CSV, recognising whose export it is, and
// the worker's hand-over of the page's export form to the resource route that answers the file.
describe("parseCsv", () => {
  it("reads quoted cells, doubled quotes, line breaks inside quotes, CRLF or LF, a BOM, and skips blank lines", () => {
    expect(parseCsv('\uFEFFemail,name\r\n"a@x.io","Ada ""A"", L"\n\nb@x.io,"two\nlines"\n')).toEqual([
      ["email", "name"],
      ["a@x.io", 'Ada "A", L'],
      ["b@x.io", "two\nlines"],
    ]);
  });
  it("answers null for a quote never closed", () => {
    expect(parseCsv('email\n"a@x.io')).toBeNull();
  });
});

describe("recogniseExport", () => {
  it("knows Substack's, Ghost's and Buttondown's exports by their headers, and what ends a row", () => {
    const substack = recogniseExport(["email", "active_subscription", "expiry", "email_disabled", "created_at"])!;
    expect(substack.format).toBe("substack");
    expect(substack.ended(["a", "false", "", "true", ""])).toBe(true);
    expect(substack.ended(["a", "false", "", "false", ""])).toBe(false);
    expect(recogniseExport(["Email", "email_disabled"])?.format).toBe("substack");
    const ghost = recogniseExport([
      "email",
      "name",
      "note",
      "subscribed_to_emails",
      "complimentary_plan",
      "stripe_customer_id",
      "created_at",
      "labels",
    ])!;
    expect(ghost.format).toBe("ghost");
    expect(ghost.ended(["a", "", "", "false"])).toBe(true);
    expect(ghost.ended(["a", "", "", "true"])).toBe(false);
    const buttondown = recogniseExport(["id", "email_address", "subscriber_type", "tags"])!;
    expect(buttondown.format).toBe("buttondown");
    expect(buttondown.email).toBe(1);
    expect(buttondown.ended(["1", "a", "unsubscribed"])).toBe(true);
    expect(buttondown.ended(["1", "a", "regular"])).toBe(false);
    // Our own export's columns are no host's export: nothing tells who left.
    expect(recogniseExport([...IMPORT_COLUMNS.ghost].filter((c) => c !== "subscribed_to_emails"))).toBeNull();
    expect(recogniseExport(["address", "unsubscribed"])).toBeNull();
  });
});

describe("filePostRequest", () => {
  const url = new URL("https://afx.test/admin/subscribers/handoff");
  const post = (type: string, at = url) =>
    new Request(at, { method: "POST", headers: { "Content-Type": type }, body: "format=ghost&scope=all" });
  it("hands the page's plain form post to the export route, body and headers kept", async () => {
    const handed = filePostRequest(post("application/x-www-form-urlencoded"), url)!;
    expect(handed.url).toBe("https://afx.test/admin/subscribers/handoff/export");
    expect(handed.method).toBe("POST");
    expect(await handed.text()).toBe("format=ghost&scope=all");
  });
  it("leaves the import (multipart), the router's data requests, GETs and other pages alone", () => {
    expect(filePostRequest(post("multipart/form-data; boundary=x"), url)).toBeNull();
    const data = new URL(`${url.href}?_data=routes%2Fadmin.subscribers.handoff`);
    expect(filePostRequest(post("application/x-www-form-urlencoded", data), data)).toBeNull();
    expect(filePostRequest(new Request(url), url)).toBeNull();
    const other = new URL("https://afx.test/admin/news");
    expect(filePostRequest(post("application/x-www-form-urlencoded", other), other)).toBeNull();
  });
});
