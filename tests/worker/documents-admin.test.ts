// The document library's admin (issue 44): uploads as a browser without JavaScript sends them (a
// plain multipart POST), new versions at the stable URL, the page's small forms, the audit log,
// and every refusal storing nothing.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { alertMailKind, fanOutAlerts } from "~/features/alerts/alerts.server";
import { versionPath } from "~/features/documents/library";
import { ORPHAN_AFTER_MS } from "~/features/documents/sweep.server";
import { runScheduledJobs } from "../../worker/scheduled";
import { ORIGIN, flashToastOf, get, signIn, type Jar } from "./auth-helpers";
import { pdfBytes, sha256Hex } from "./documents-helpers";

const MAX = 12 * 1024 * 1024; // vitest.config.ts
let admin: Jar;
let member: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
  member = (await signIn("member@example.com", { name: "Max Member" })).jar;
});

const FIELDS = {
  title: "Q3 2026 Report",
  description: "The third quarter.",
  category: "Reports",
  venture: "",
  visibility: "public",
  publish: "on",
};

/** The form as a browser sends it: text fields in the form's order, then the file. */
function uploadForm(fields: Record<string, string>, file: Uint8Array<ArrayBuffer> | null, fileName = "q3 report.pdf") {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new File([file], fileName, { type: "application/pdf" }));
  return form;
}

const post = (path: string, jar: Jar | undefined, body: BodyInit, headers: Record<string, string> = {}) =>
  get(path, jar, {
    method: "POST",
    body,
    headers: { Host: new URL(ORIGIN).host, Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", ...headers },
  });

/** What the library holds: catalogue rows and R2 objects (other files' objects included). */
async function holdings() {
  const rows = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM documents) + (SELECT count(*) FROM document_versions) AS n",
  ).first<number>("n");
  const objects = (await env.DOCUMENTS.list()).objects.map((o) => o.key).sort();
  return { rows, objects };
}

async function uploaded(res: Response) {
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get("location")!, ORIGIN).pathname;
  expect(location).toMatch(/^\/admin\/documents\/[\w-]{12}$/);
  const id = location.split("/").pop()!;
  const row = await env.DB.prepare("SELECT * FROM documents WHERE id = ?")
    .bind(id)
    .first<{ path: string; status: string; title: string }>();
  return { id, location, row: row! };
}

describe("uploading a document, as a browser without JavaScript", () => {
  it("stores it, and a visitor downloads the same bytes at once at its stable URL", async () => {
    const bytes = pdfBytes("the report", 20_000);
    const res = await post("/admin/documents", admin, uploadForm(FIELDS, bytes));
    const { id, row } = await uploaded(res);
    expect(row).toMatchObject({ title: FIELDS.title, status: "published" });
    expect(row.path).toBe(`/documents/${id}/q3-2026-report.pdf`);
    const download = await get(row.path);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    expect(download.headers.get("content-disposition")).toBe('inline; filename="Q3 2026 Report.pdf"');
    const audit = await env.DB.prepare("SELECT actor, action, target FROM audit_log WHERE target = ?")
      .bind(`document ${id}`)
      .all();
    expect(audit.results).toEqual([
      { actor: "admin@example.com", action: "document.create", target: `document ${id}` },
    ]);
    // The list shows it with its status, visibility, size and downloads.
    const list = await (await get("/admin/documents", admin)).text();
    expect(list).toContain(FIELDS.title);
    expect(list).toMatch(/data-testid="downloads"[^>]*>1</);
  });

  it("a file over R2's part size goes up in parts, hashed whole", async () => {
    const bytes = pdfBytes("large", 11 * 1024 * 1024 + 123);
    const { row } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, bytes)));
    const res = await get(row.path, undefined, { method: "HEAD" });
    expect(res.headers.get("etag")).toBe(`"${await sha256Hex(bytes)}"`);
    expect(res.headers.get("content-length")).toBe(String(bytes.byteLength));
    const tail = await get(row.path, undefined, { headers: { Range: "bytes=-7" } });
    expect(new TextDecoder().decode(await tail.arrayBuffer())).toBe("\n%%EOF\n");
  });

  it("a draft stays unpublished until published", async () => {
    const { id, row } = await uploaded(
      await post("/admin/documents", admin, uploadForm({ ...FIELDS, publish: "" }, pdfBytes())),
    );
    expect(row.status).toBe("draft");
    expect((await get(row.path)).status).toBe(302);
    const publish = await post(`/admin/documents/${id}`, admin, new URLSearchParams({ intent: "publish" }));
    expect(publish.status).toBe(303);
    expect((await get(row.path)).status).toBe(200);
    const unpublish = await post(`/admin/documents/${id}`, admin, new URLSearchParams({ intent: "unpublish" }));
    expect(unpublish.status).toBe(303);
    expect((await get(row.path)).status).toBe(302);
  });
});

describe("refusals store nothing", () => {
  it("a member's upload: 404 as the page, nothing stored", async () => {
    const before = await holdings();
    const res = await post("/admin/documents", member, uploadForm(FIELDS, pdfBytes()));
    expect(res.status).toBe(404);
    expect(await holdings()).toEqual(before);
  });

  it("a cross-site upload: 403, nothing stored", async () => {
    const before = await holdings();
    const res = await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes()), {
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(res.status).toBe(403);
    expect(await holdings()).toEqual(before);
  });

  it("a PNG named .pdf: 400, the file refused by its bytes, every typed field kept", async () => {
    const before = await holdings();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(500)]);
    const res = await post("/admin/documents", admin, uploadForm(FIELDS, png, "chart.pdf"));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("This file is not a PDF");
    expect(html).toContain(`value="${FIELDS.title}"`);
    expect(html).toContain(FIELDS.description);
    expect(await holdings()).toEqual(before);
  });

  it("a PDF without its %%EOF is not a PDF either", async () => {
    const before = await holdings();
    const cut = pdfBytes("cut", 5000).slice(0, 4000);
    const res = await post("/admin/documents", admin, uploadForm(FIELDS, cut));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This file is not a PDF");
    expect(await holdings()).toEqual(before);
  });

  it("an empty title: 400, the other fields kept, the uploaded file discarded", async () => {
    const before = await holdings();
    const res = await post("/admin/documents", admin, uploadForm({ ...FIELDS, title: "  " }, pdfBytes()));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please enter a title.");
    expect(html).toContain(FIELDS.description);
    expect(html).toMatch(/<option value="Reports" selected="">/);
    expect(await holdings()).toEqual(before);
  });

  it("an unknown category, venture or visibility: 400", async () => {
    const before = await holdings();
    for (const bad of [{ category: "Secrets" }, { venture: "nope" }, { visibility: "everyone" }]) {
      const res = await post("/admin/documents", admin, uploadForm({ ...FIELDS, ...bad }, pdfBytes()));
      expect(res.status).toBe(400);
      await res.arrayBuffer();
    }
    expect(await holdings()).toEqual(before);
  });

  it("a title over 120 characters and a description over 500: 400", async () => {
    const res = await post(
      "/admin/documents",
      admin,
      uploadForm({ ...FIELDS, title: "x".repeat(121), description: "y".repeat(501) }, pdfBytes()),
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please keep the title to 120 characters.");
    expect(html).toContain("Please keep the description to 500 characters.");
  });

  it("a file over DOCUMENT_MAX_BYTES: 413 with a clear message, the rest of the body never read", async () => {
    const before = await holdings();
    const encoder = new TextEncoder();
    const boundary = "----afxBoundary";
    const head = encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBig\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    );
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    const total = 40; // MiB offered, chunked (no Content-Length to refuse up front)
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent++ >= total) return controller.close();
        controller.enqueue(chunk);
      },
    });
    const res = await post("/admin/documents", admin, body, {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The file is larger than the limit of 12 MiB: nothing was stored.");
    expect(sent).toBeLessThan(total / 2);
    expect(await holdings()).toEqual(before);
  });

  it("a Content-Length over the limit: 413 with the page's message (the body read and thrown away, as a browser needs)", async () => {
    const before = await holdings();
    const res = await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes("x", MAX + 1)));
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The file is larger than the limit of 12 MiB: nothing was stored.");
    expect(await holdings()).toEqual(before);
  });

  /** A chunked multipart body (no Content-Length): `parts` first, then `size` MiB of the last part. */
  function chunked(boundary: string, parts: string, size: number) {
    const head = new TextEncoder().encode(parts);
    const chunk = new Uint8Array(1024 * 1024).fill(65);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent++ >= size) return controller.close();
        controller.enqueue(chunk);
      },
    });
    return { body, sent: () => sent };
  }

  it.each([
    [
      "a large extra file part before the PDF",
      'name="attachment"; filename="extra.bin"',
      413,
      "The file is larger than the limit of 12 MiB: nothing was stored.",
    ],
    [
      "a large non-PDF in the file field",
      'name="file"; filename="big.pdf"',
      413,
      "The file is larger than the limit of 12 MiB: nothing was stored.",
    ],
    ["a large text part", 'name="notes"', 400, "The form's text fields are too long."],
  ])("a chunked upload with %s: refused at once (%i), nothing stored", async (_, disposition, status, message) => {
    const before = await holdings();
    const boundary = "----afxExtra";
    const total = 40;
    const { body, sent } = chunked(
      boundary,
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nExtra\r\n--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`,
      total,
    );
    const res = await post("/admin/documents", admin, body, {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(res.status).toBe(status);
    expect(await res.text()).toContain(message);
    expect(sent()).toBeLessThan(total / 2);
    expect(await holdings()).toEqual(before);
  });

  it("a form of more parts than any of ours: 400, nothing stored", async () => {
    const before = await holdings();
    const form = uploadForm(FIELDS, null);
    for (let i = 0; i < 40; i++) form.append(`extra${i}`, "x");
    form.append("file", new File([pdfBytes("many parts")], "a.pdf", { type: "application/pdf" }));
    const res = await post("/admin/documents", admin, form);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The form has too many parts.");
    expect(await holdings()).toEqual(before);
  });

  it("an empty file input (no file chosen) says to choose a file, not that it is not a PDF", async () => {
    const before = await holdings();
    const form = uploadForm(FIELDS, null);
    form.append("file", new File([], "", { type: "application/octet-stream" }));
    const res = await post("/admin/documents", admin, form);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Choose a file");
    expect(html).not.toContain("not a PDF");
    expect(await holdings()).toEqual(before);
  });
});

describe("a document's page", () => {
  it("a new version replaces the file at the stable URL; the old version's URL keeps its bytes", async () => {
    const first = pdfBytes("first");
    const { id, row } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, first)));
    const second = pdfBytes("second, longer");
    const res = await post(`/admin/documents/${id}`, admin, uploadForm({ alert: "on" }, second, "v2.pdf"));
    expect(res.status).toBe(303);
    expect(new Uint8Array(await (await get(row.path)).arrayBuffer())).toEqual(second);
    const old = await get(versionPath(await sha256Hex(first)));
    expect(old.status).toBe(200);
    expect(new Uint8Array(await old.arrayBuffer())).toEqual(first);
    expect(new Uint8Array(await (await get(versionPath(await sha256Hex(second)))).arrayBuffer())).toEqual(second);

    // Both versions listed; the first made current again.
    const page = await (await get(`/admin/documents/${id}`, admin)).text();
    expect(page.match(/data-testid="version"/g)).toHaveLength(2);
    const firstId = await env.DB.prepare("SELECT min(id) AS v FROM document_versions WHERE document_id = ?")
      .bind(id)
      .first<number>("v");
    const restore = await post(
      `/admin/documents/${id}`,
      admin,
      new URLSearchParams({ intent: "restore", version: String(firstId) }),
    );
    expect(restore.status).toBe(303);
    expect(new Uint8Array(await (await get(row.path)).arrayBuffer())).toEqual(first);
  });

  it("edits its fields; an empty title is refused with the typed fields kept", async () => {
    const { id } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes())));
    const edit = {
      intent: "edit",
      title: "Renamed",
      description: "New words",
      category: "Presentations",
      venture: "vctr",
      visibility: "members",
    };
    expect((await post(`/admin/documents/${id}`, admin, new URLSearchParams(edit))).status).toBe(303);
    const row = await env.DB.prepare("SELECT title, category, venture_id AS v, visibility FROM documents WHERE id = ?")
      .bind(id)
      .first();
    expect(row).toEqual({ title: "Renamed", category: "Presentations", v: "vctr", visibility: "members" });
    const bad = await post(
      `/admin/documents/${id}`,
      admin,
      new URLSearchParams({ ...edit, title: "", description: "Kept words" }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Kept words");
  });

  it("deletes the document, every version's object and URL, audited", async () => {
    const { id, row } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes("gone"))));
    await post(`/admin/documents/${id}`, admin, uploadForm({}, pdfBytes("gone too")));
    const keys = (
      await env.DB.prepare("SELECT object_key AS k FROM document_versions WHERE document_id = ?")
        .bind(id)
        .all<{ k: string }>()
    ).results.map((r) => r.k);
    expect(keys).toHaveLength(2);
    const res = await post(`/admin/documents/${id}`, admin, new URLSearchParams({ intent: "delete" }));
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!, ORIGIN).pathname).toBe("/admin/documents");
    for (const key of keys) expect(await env.DOCUMENTS.head(key)).toBeNull();
    expect((await get(row.path)).status).toBe(302);
    expect(
      await env.DB.prepare("SELECT action FROM audit_log WHERE target = ? ORDER BY id DESC")
        .bind(`document ${id}`)
        .first("action"),
    ).toBe("document.delete");
    expect((await get(`/admin/documents/${id}`, admin)).status).toBe(404);
  });

  it("a new version of an unknown document: 404, nothing stored", async () => {
    const before = await holdings();
    const res = await post("/admin/documents/no-such-doc1", admin, uploadForm({}, pdfBytes("orphan?")));
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    expect(await holdings()).toEqual(before);
  });

  it("is the not-found page for a visitor and a member", async () => {
    const { id } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes())));
    for (const jar of [undefined, member]) {
      expect((await get("/admin/documents", jar)).status).toBe(404);
      expect((await get(`/admin/documents/${id}`, jar)).status).toBe(404);
    }
  });
});

describe("versions, withdrawal and alerts on a document's page (issue 53)", () => {
  const change = (id: string, fields: Record<string, string>) =>
    post(`/admin/documents/${id}`, admin, new URLSearchParams(fields), {
      "Content-Type": "application/x-www-form-urlencoded",
    });
  const versionIds = async (id: string) =>
    (
      await env.DB.prepare("SELECT id FROM document_versions WHERE document_id = ? ORDER BY id").bind(id).all<{
        id: number;
      }>()
    ).results.map((r) => r.id);

  it("the current version's bytes uploaded again are refused with a message; nothing is stored", async () => {
    const bytes = pdfBytes("pressed twice");
    const { id } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, bytes)));
    const before = await holdings();
    const res = await post(`/admin/documents/${id}`, admin, uploadForm({}, bytes, "again.pdf"));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This file is the current version already: nothing was stored.");
    expect(await holdings()).toEqual(before);
  });

  it("withdraws a superseded version (its URL then unknown), never the current one; restoring serves it again", async () => {
    const first = pdfBytes("withdraw me");
    const { id, row } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, first)));
    await post(`/admin/documents/${id}`, admin, uploadForm({}, pdfBytes("the current one")));
    const [v1, v2] = await versionIds(id);
    const firstUrl = versionPath(await sha256Hex(first));
    expect((await get(firstUrl)).status).toBe(200);

    expect((await change(id, { intent: "withdraw-version", version: String(v2) })).status).toBe(404);
    const withdrawn = await change(id, { intent: "withdraw-version", version: String(v1) });
    expect(withdrawn.status).toBe(303);
    const gone = await get(firstUrl);
    expect(gone.status).toBe(302);
    expect(new URL(gone.headers.get("location")!, ORIGIN).pathname).toBe("/documents");
    expect((await get(row.path)).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT action FROM audit_log WHERE target = ? ORDER BY id DESC")
        .bind(`document ${id}`)
        .first("action"),
    ).toBe("document.withdraw-version");
    expect(await (await get(`/admin/documents/${id}`, admin)).text()).toContain("withdrawn: its URL serves nothing");

    expect((await change(id, { intent: "restore", version: String(v1) })).status).toBe(303);
    expect((await get(firstUrl)).status).toBe(200);
    expect(new Uint8Array(await (await get(row.path)).arrayBuffer())).toEqual(first);
  });

  it("Unpublish asks first without JavaScript, and a withdrawn document reads Withdrawn, not Draft", async () => {
    const { id, row } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes("asked"))));
    const page = await (await get(`/admin/documents/${id}`, admin)).text();
    expect(page).toMatch(/<a[^>]*href="[^"]*\?confirm=unpublish"[^>]*>Unpublish<\/a>/);
    expect(page).not.toContain('data-testid="confirm-step"');
    const asking = await (await get(`/admin/documents/${id}?confirm=unpublish`, admin)).text();
    expect(asking).toContain('data-testid="confirm-step"');
    expect(asking).toContain("Unpublish this document?");
    expect(asking).toMatch(/<input type="hidden" name="intent" value="unpublish"\/>/);
    expect((await get(row.path)).status).toBe(200);

    expect((await change(id, { intent: "unpublish" })).status).toBe(303);
    expect((await get(row.path)).status).toBe(302);
    expect(await (await get(`/admin/documents/${id}`, admin)).text()).toContain('data-testid="status">Withdrawn<');
    const { publish: _, ...draftFields } = FIELDS;
    const { id: draft } = await uploaded(await post("/admin/documents", admin, uploadForm(draftFields, pdfBytes("d"))));
    expect(await (await get(`/admin/documents/${draft}`, admin)).text()).toContain('data-testid="status">Draft<');
    const list = await (await get("/admin/documents", admin)).text();
    const rowOf = (doc: string) =>
      list.slice(list.indexOf(`data-id="${doc}"`), list.indexOf("</tr>", list.indexOf(`data-id="${doc}"`)));
    expect(rowOf(id)).toContain("Withdrawn");
    expect(rowOf(draft)).toContain("Draft");
  });

  it("a new version's alert says it is an update; a members-only one says none is sent; each version shows its alert", async () => {
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, status, consent_method, topic) VALUES ('updates@example.org', '', 'test', 'confirmed', 'double-opt-in', 'alerts')",
    ).run();
    const first = pdfBytes("edition one");
    const created = await post(
      "/admin/documents",
      admin,
      uploadForm({ ...FIELDS, title: "Annual letter", alert: "on" }, first),
    );
    const { id } = await uploaded(created);
    expect((await flashToastOf(created))?.description).toContain("Investor alerts are going out");
    const second = pdfBytes("edition two");
    await post(`/admin/documents/${id}`, admin, uploadForm({ alert: "on" }, second));
    await fanOutAlerts(env);
    const subjects = (
      await env.DB.prepare("SELECT kind, subject FROM mail_outbox WHERE recipient = 'updates@example.org'").all<{
        kind: string;
        subject: string;
      }>()
    ).results;
    const subjectOf = async (bytes: Uint8Array<ArrayBuffer>) => {
      const kind = alertMailKind("document", `${id}:${await sha256Hex(bytes)}`);
      return subjects.find((m) => m.kind === kind)?.subject;
    };
    expect(await subjectOf(first)).toBe("AFX Holding Group: Annual letter");
    expect(await subjectOf(second)).toBe("AFX Holding Group: Updated: Annual letter");
    const page = await (await get(`/admin/documents/${id}`, admin)).text();
    expect(page.match(/data-testid="alert-status">Investor alert sent to \d+ of [1-9]\d* subscribers?</g)).toHaveLength(
      2,
    );

    const members = await post(
      "/admin/documents",
      admin,
      uploadForm({ ...FIELDS, visibility: "members", alert: "on" }, pdfBytes("for members")),
    );
    expect((await flashToastOf(members))?.description).toContain(
      "No investor alert was sent: the document is for members only.",
    );
    const { id: hidden } = await uploaded(members);
    expect(await (await get(`/admin/documents/${hidden}`, admin)).text()).toContain(
      "No investor alert sent for this version",
    );
  });
});

describe("the orphan sweep (Cron Trigger)", () => {
  it("removes an object the catalogue does not name once it is older than any upload, and nothing else", async () => {
    const { id } = await uploaded(await post("/admin/documents", admin, uploadForm(FIELDS, pdfBytes("kept"))));
    const kept = await env.DB.prepare("SELECT object_key AS k FROM document_versions WHERE document_id = ?")
      .bind(id)
      .first<string>("k");
    const orphan = `versions/orphan-${crypto.randomUUID()}`;
    await env.DOCUMENTS.put(orphan, pdfBytes("left by a crash"));
    // Just written: could be an upload in progress.
    await runScheduledJobs(env);
    expect(await env.DOCUMENTS.head(orphan)).not.toBeNull();
    const { orphanDocuments } = await runScheduledJobs(env, Date.now() + ORPHAN_AFTER_MS + 60_000);
    expect(orphanDocuments).toBeGreaterThanOrEqual(1);
    expect(await env.DOCUMENTS.head(orphan)).toBeNull();
    expect(await env.DOCUMENTS.head(kept!)).not.toBeNull();
  });
});

describe("investor alerts for documents", () => {
  /** Alert e-mails queued for one version of a document to one address. */
  const alertsTo = async (id: string, sha: string, to: string) =>
    (
      await env.DB.prepare("SELECT id FROM mail_outbox WHERE kind = ? AND recipient = ?")
        .bind(alertMailKind("document", `${id}:${sha}`), to)
        .all()
    ).results.length;

  it("mail each confirmed alerts subscriber once per published version, never a newsletter reader, never for a members-only file", async () => {
    const investor = "investor@example.org";
    const reader = "reader@example.org";
    for (const [email, topic] of [
      [investor, "alerts"],
      [reader, "newsletter"],
    ])
      await env.DB.prepare(
        "INSERT INTO leads (email, first_name, source, status, consent_method, topic) VALUES (?, '', 'test', 'confirmed', 'double-opt-in', ?)",
      )
        .bind(email, topic)
        .run();

    const first = pdfBytes("first edition");
    const { id } = await uploaded(await post("/admin/documents", admin, uploadForm({ ...FIELDS, alert: "on" }, first)));
    await fanOutAlerts(env); // what the response's waitUntil runs, run again: still once
    const firstSha = await sha256Hex(first);
    expect(await alertsTo(id, firstSha, investor)).toBe(1);
    expect(await alertsTo(id, firstSha, reader)).toBe(0);

    // A new version is news again; the same alert is not sent twice.
    const second = pdfBytes("second edition");
    const res = await post(`/admin/documents/${id}`, admin, uploadForm({ alert: "on" }, second));
    expect(res.status).toBe(303);
    await fanOutAlerts(env);
    expect(await alertsTo(id, await sha256Hex(second), investor)).toBe(1);
    expect(await alertsTo(id, firstSha, investor)).toBe(1);

    // A draft announces itself when it is published later with the box ticked, once.
    const draftFile = pdfBytes("a draft");
    const { publish: _, ...unpublished } = FIELDS;
    const { id: draft } = await uploaded(await post("/admin/documents", admin, uploadForm(unpublished, draftFile)));
    const publish = () =>
      post(`/admin/documents/${draft}`, admin, new URLSearchParams({ intent: "publish", alert: "on" }), {
        "Content-Type": "application/x-www-form-urlencoded",
      });
    expect((await publish()).status).toBe(303);
    expect((await publish()).status).toBe(303);
    await fanOutAlerts(env);
    expect(await alertsTo(draft, await sha256Hex(draftFile), investor)).toBe(1);

    // Members-only: its link would answer a subscriber who is not a member as an unknown path.
    const secret = pdfBytes("members only");
    const { id: hidden } = await uploaded(
      await post("/admin/documents", admin, uploadForm({ ...FIELDS, visibility: "members", alert: "on" }, secret)),
    );
    await fanOutAlerts(env);
    expect(await alertsTo(hidden, await sha256Hex(secret), investor)).toBe(0);
  });
});
