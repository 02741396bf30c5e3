// Serving the document library's files (issue 44): stable and version URLs, conditional and range
// requests, HEAD, the headers a PDF viewer and a CDN expect, members-only files, and the one
// answer (a redirect to /documents) for everything that serves no file.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { versionPath } from "~/features/documents/library";
import { contentDisposition, parseRange } from "~/features/documents/serve.server";
import { get, signIn, type Jar } from "./auth-helpers";
import { pdfBytes, putDocument, sha256Hex } from "./documents-helpers";

const text = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());
const expectUnknown = (res: Response) => {
  expect(res.status).toBe(302);
  expect(new URL(res.headers.get("location")!, "https://afx.test").pathname).toBe("/documents");
};

let member: Jar;
beforeAll(async () => {
  member = (await signIn("reader@example.com", { name: "Rita Reader" })).jar;
});

describe("a public document", () => {
  it("serves its current version at its stable URL: 200, the bytes and the headers", async () => {
    const doc = await putDocument({ bytes: pdfBytes("stable", 4000), title: "Q3 report" });
    const res = await get(doc.path);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(doc.bytes);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe("4000");
    expect(res.headers.get("etag")).toBe(`"${doc.sha256}"`);
    expect(Date.parse(res.headers.get("last-modified")!)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="Q3 report.pdf"');
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("cache-control")).toBe("public, no-cache");
  });

  it("serves the same bytes at the version's own URL, immutable", async () => {
    const doc = await putDocument();
    const res = await get(versionPath(doc.sha256));
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(doc.bytes);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("answers If-None-Match with 304, a Range with 206 and Content-Range, HEAD without a body", async () => {
    const doc = await putDocument({ bytes: pdfBytes("ranges", 1000) });
    const notModified = await get(doc.path, undefined, { headers: { "If-None-Match": `"${doc.sha256}"` } });
    expect(notModified.status).toBe(304);
    expect(await text(notModified)).toBe("");
    const other = await get(doc.path, undefined, { headers: { "If-None-Match": '"something-else"' } });
    expect(other.status).toBe(200);
    await other.arrayBuffer();

    const part = await get(doc.path, undefined, { headers: { Range: "bytes=0-4" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 0-4/1000");
    expect(part.headers.get("content-length")).toBe("5");
    expect(await text(part)).toBe("%PDF-");
    const tail = await get(doc.path, undefined, { headers: { Range: "bytes=-7" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe("bytes 993-999/1000");
    expect(await text(tail)).toBe("\n%%EOF\n");
    const past = await get(doc.path, undefined, { headers: { Range: "bytes=5000-" } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe("bytes */1000");

    const head = await get(doc.path, undefined, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("1000");
    expect(head.headers.get("etag")).toBe(`"${doc.sha256}"`);
    expect(await text(head)).toBe("");
  });

  it("counts a download per document per day, after the response (not a 304, a HEAD or any partial range)", async () => {
    const doc = await putDocument();
    await (await get(doc.path)).arrayBuffer();
    await (await get(doc.path, undefined, { headers: { Range: "bytes=0-10" } })).arrayBuffer();
    await (await get(doc.path, undefined, { headers: { Range: "bytes=10-20" } })).arrayBuffer();
    await (await get(doc.path, undefined, { method: "HEAD" })).arrayBuffer();
    await (await get(doc.path, undefined, { headers: { "If-None-Match": `"${doc.sha256}"` } })).arrayBuffer();
    await expect
      .poll(() =>
        env.DB.prepare("SELECT sum(count) AS n FROM document_downloads WHERE document_id = ?").bind(doc.id).first("n"),
      )
      .toBe(1);
  });
});

describe("downloads and cookies (issue 53)", () => {
  it("a file answer sets no cookie, at the stable URL and the version's, however it is read", async () => {
    const doc = await putDocument();
    for (const path of [doc.path, versionPath(doc.sha256)])
      for (const headers of [{}, { Range: "bytes=0-0" }, { Range: "bytes=0-" }] as Record<string, string>[]) {
        const res = await get(path, undefined, { headers });
        await res.arrayBuffer();
        expect(res.headers.get("set-cookie"), `${path} ${JSON.stringify(headers)}`).toBeNull();
      }
  });

  it("five one-byte ranges from the start count no download; a whole read (200, or bytes=0-) counts one", async () => {
    const doc = await putDocument({ bytes: pdfBytes("probes", 2000) });
    for (let i = 0; i < 5; i++) {
      const probe = await get(doc.path, undefined, { headers: { Range: "bytes=0-0" } });
      expect(probe.status).toBe(206);
      await probe.arrayBuffer();
    }
    const downloads = () =>
      env.DB.prepare("SELECT coalesce(sum(count), 0) AS n FROM document_downloads WHERE document_id = ?")
        .bind(doc.id)
        .first("n");
    // Counting runs after the response: a later whole read's count shows the probes' were none.
    await (await get(doc.path, undefined, { headers: { Range: "bytes=0-" } })).arrayBuffer();
    await expect.poll(downloads).toBe(1);
    await (await get(doc.path)).arrayBuffer();
    await expect.poll(downloads).toBe(2);
  });

  it("Last-Modified is when the version became current: restoring an older one moves it forwards", async () => {
    const doc = await putDocument({ bytes: pdfBytes("older") });
    const long = Date.now() - 86_400_000;
    // The current version was uploaded a day ago, and became current then.
    await env.DB.batch([
      env.DB.prepare("UPDATE document_versions SET uploaded_at = ? WHERE document_id = ?").bind(long, doc.id),
      env.DB.prepare("UPDATE documents SET current_since = ? WHERE id = ?").bind(long, doc.id),
    ]);
    const before = Date.parse((await get(doc.path)).headers.get("last-modified")!);
    expect(before).toBeLessThan(Date.now() - 3_600_000);
    // Made current again now (a restore): the stable URL's copy is newer than any a client holds.
    await env.DB.prepare("UPDATE documents SET current_since = ? WHERE id = ?").bind(Date.now(), doc.id).run();
    const res = await get(doc.path, undefined, { headers: { "If-Modified-Since": new Date(before).toUTCString() } });
    expect(res.status).toBe(200);
    expect(Date.parse(res.headers.get("last-modified")!)).toBeGreaterThan(before);
    await res.arrayBuffer();
  });
});

describe("what serves no file answers as an unknown path", () => {
  it.each(["/documents/anything", "/documents/a/b/c.pdf", `/documents/v/${"0".repeat(64)}.pdf`])(
    "%s redirects to /documents",
    async (path) => expectUnknown(await get(path)),
  );

  it.each(["/documents/%E0%A4%A", "/documents/%ZZ", "/documents/v/%ZZ.pdf", "/documents/a%E0%A4%A/b.pdf"])(
    "a malformed percent-encoding %s redirects as an unknown path (no 500)",
    async (path) => expectUnknown(await get(path)),
  );

  it("a withdrawn version's own URL, while the current one is served", async () => {
    const doc = await putDocument({ bytes: pdfBytes("v1 of two") });
    const second = pdfBytes("v2 of two");
    const key = `versions/${crypto.randomUUID()}`;
    await env.DOCUMENTS.put(key, second);
    const sha2 = await sha256Hex(second);
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO document_versions (document_id, object_key, size, sha256, file_name, uploaded_by, uploaded_at) VALUES (?1, ?2, ?3, ?4, 'v2.pdf', 'test', ?5)",
      ).bind(doc.id, key, second.byteLength, sha2, Date.now()),
      env.DB.prepare(
        "UPDATE documents SET current_version_id = (SELECT max(id) FROM document_versions WHERE document_id = ?1) WHERE id = ?1",
      ).bind(doc.id),
      env.DB.prepare("UPDATE document_versions SET withdrawn_at = ? WHERE sha256 = ?").bind(Date.now(), doc.sha256),
    ]);
    expectUnknown(await get(versionPath(doc.sha256)));
    expect((await get(versionPath(sha2))).status).toBe(200);
    expect(new Uint8Array(await (await get(doc.path)).arrayBuffer())).toEqual(second);
  });

  it("an admin previews a draft's own links, privately and uncounted; anyone else is redirected", async () => {
    const admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
    const doc = await putDocument({ status: "draft" });
    for (const path of [doc.path, versionPath(doc.sha256)]) {
      const res = await get(path, admin);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(doc.bytes);
      expectUnknown(await get(path, member));
    }
    const counted = await env.DB.prepare("SELECT count(*) AS n FROM document_downloads WHERE document_id = ?")
      .bind(doc.id)
      .first("n");
    expect(counted).toBe(0);
  });

  it("an unpublished (draft) document, at its stable and its version URL", async () => {
    const doc = await putDocument({ status: "draft" });
    expectUnknown(await get(doc.path));
    expectUnknown(await get(versionPath(doc.sha256)));
  });

  it("a document unpublished after it was served is gone at once", async () => {
    const doc = await putDocument();
    expect((await get(doc.path)).status).toBe(200);
    await env.DB.prepare("UPDATE documents SET status = 'draft' WHERE id = ?").bind(doc.id).run();
    expectUnknown(await get(doc.path));
    expectUnknown(await get(versionPath(doc.sha256)));
  });
});

describe("a members-only document", () => {
  it("reaches a signed-in member, private and never stored", async () => {
    const doc = await putDocument({ visibility: "members" });
    for (const path of [doc.path, versionPath(doc.sha256)]) {
      const res = await get(path, member);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(doc.bytes);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("answers anyone else exactly as an unknown path, never publicly cacheable", async () => {
    const doc = await putDocument({ visibility: "members" });
    for (const path of [doc.path, versionPath(doc.sha256)]) {
      const res = await get(path);
      const unknown = await get("/documents/no-such-file.pdf");
      expectUnknown(res);
      expect([...res.headers].filter(([n]) => n !== "server-timing" && n !== "content-security-policy")).toEqual(
        [...unknown.headers].filter(([n]) => n !== "server-timing" && n !== "content-security-policy"),
      );
      expect(res.headers.get("cache-control") ?? "").not.toMatch(/public/);
    }
  });
});

describe("the file name and the range header", () => {
  it("quotes an ASCII name and adds the UTF-8 form for any other", () => {
    expect(contentDisposition("report.pdf")).toBe('inline; filename="report.pdf"');
    expect(contentDisposition('a"b\\c/d\r\n.pdf')).toBe('inline; filename="abcd.pdf"');
    expect(contentDisposition("Übersicht 2026.pdf")).toBe(
      "inline; filename=\"Ubersicht 2026.pdf\"; filename*=UTF-8''%C3%9Cbersicht%202026.pdf",
    );
    expect(contentDisposition("報告")).toBe("inline; filename=\"__.pdf\"; filename*=UTF-8''%E5%A0%B1%E5%91%8A.pdf");
  });

  it("a fullwidth quote, slash or backslash adds no second filename (filtered after NFKD too)", () => {
    for (const title of ['x＂; filename="evil.html＂／＼.pdf', "report＂； filename＝＂evil.html", "a＼b／c＂d"]) {
      const header = contentDisposition(title);
      expect(header.match(/filename=/g), header).toHaveLength(1);
      expect(header.match(/filename\*=/g), header).toHaveLength(1);
      const ascii = /filename="([^"]*)"/.exec(header)?.[1] ?? "";
      expect(ascii).not.toMatch(/["\\/;=]/);
      expect(header).toMatch(/^inline; filename="[^"]*"; filename\*=UTF-8''[^"\s;]+$/);
    }
  });

  it("a reader downloads the document's title as its name, not the uploader's file name", async () => {
    const doc = await putDocument({ title: "Q3 Report 2026", fileName: "draft-v7-FINAL(2).pdf" });
    const res = await get(doc.path);
    await res.arrayBuffer();
    expect(res.headers.get("content-disposition")).toBe('inline; filename="Q3 Report 2026.pdf"');
  });

  it("reads one byte range; several or a malformed one mean the whole file", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ offset: 0, length: 100 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ offset: 900, length: 100 });
    expect(parseRange("bytes=-2000", 1000)).toEqual({ offset: 0, length: 1000 });
    expect(parseRange("bytes=0-1,5-6", 1000)).toBe("none");
    expect(parseRange("items=0-1", 1000)).toBe("none");
    expect(parseRange("bytes=1000-", 1000)).toBe("unsatisfiable");
  });
});
