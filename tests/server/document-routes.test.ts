// The document library's admin routes, their loaders and actions called directly: the guard, the
// seeded starting documents, a document's page and its small forms (the plain, non-multipart
// POSTs). Uploads, multipart and streamed to R2, are tests/worker/documents-admin.test.ts's.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as upload, loader as library } from "~/routes/admin.documents";
import { action as change, loader as documentPage } from "~/routes/admin.documents_.$id";
import { STARTING_DOCUMENTS } from "~/content/documents";
import { ADMIN, asResponse, callRoute, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM audit_log"), env.DB.prepare("DELETE FROM rate_limits")]);
});

const MAX_BYTES = 12 * 1024 * 1024; // tests/fixtures/workers-pool.ts
const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

interface Listed {
  id: string;
  path: string;
  title: string;
  status: string;
  visibility: string;
  sha256: string | null;
}

interface Loaded {
  document: { id: string; title: string; description: string; status: string; currentVersionId: number };
  versions: { id: number; uploadedBy: string }[];
  maxBytes: number;
}

const counts = async () =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM document_versions) AS versions",
  ).first<{ documents: number; versions: number }>();

/** The seeded corporate overview's id, as the admin's list names it. */
async function overviewId(admin: string): Promise<string> {
  const res = asResponse(await callRoute(library, { path: "/admin/documents", cookie: admin }));
  const { documents } = await res.json<{ documents: Listed[] }>();
  const overview = documents.find((d) => d.path === STARTING_DOCUMENTS[0]?.url);
  if (!overview) throw new Error("the corporate overview is not seeded");
  return overview.id;
}

describe("/admin/documents", () => {
  it("is the not-found page for a visitor and a member; an admin gets the seeded library, never cached", async () => {
    expect(asResponse(await callRoute(library, { path: "/admin/documents" })).status).toBe(404);
    const member = await signedIn("member@example.com");
    expect(asResponse(await callRoute(library, { path: "/admin/documents", cookie: member })).status).toBe(404);
    const admin = await signedIn(ADMIN);
    const res = asResponse(await callRoute(library, { path: "/admin/documents", cookie: admin }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await res.json<{ documents: Listed[]; ventures: { id: string }[]; maxBytes: number }>();
    expect(data.documents.map((d) => d.path).sort()).toEqual(STARTING_DOCUMENTS.map((d) => d.url).sort());
    for (const d of data.documents) {
      expect(d).toMatchObject({ status: "published", visibility: "public" });
      expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(data.maxBytes).toBe(MAX_BYTES);
    expect(data.ventures.length).toBeGreaterThan(0);
  });

  it("an upload is refused cross-site (403) and to a member or visitor (404); a non-multipart one is a 400", async () => {
    const before = await counts();
    const fields = { title: "Q3", category: "Reports", venture: "", visibility: "public", publish: "on" };
    const admin = await signedIn(ADMIN);
    const member = await signedIn("member@example.com");
    const path = "/admin/documents";
    const cross = asResponse(await callRoute(upload, { path, form: fields, cookie: admin, headers: CROSS_SITE }));
    expect(cross.status).toBe(403);
    expect(asResponse(await callRoute(upload, { path, form: fields, cookie: member })).status).toBe(404);
    expect(asResponse(await callRoute(upload, { path, form: fields })).status).toBe(404);
    const plain = asResponse(await callRoute(upload, { path, form: fields, cookie: admin }));
    expect(plain.status).toBe(400);
    expect(JSON.stringify(await plain.json())).toContain("Send the form as multipart/form-data.");
    expect(await counts()).toEqual(before);
    expect(await env.DB.prepare("SELECT 1 FROM audit_log").first()).toBeNull();
  });
});

describe("/admin/documents/:id", () => {
  it("loads a seeded document with its one version for an admin; 404 for a member and for an unknown id", async () => {
    const admin = await signedIn(ADMIN);
    const id = await overviewId(admin);
    const member = await signedIn("member@example.com");
    const path = `/admin/documents/${id}`;
    expect(asResponse(await callRoute(documentPage, { path, params: { id } })).status).toBe(404);
    expect(asResponse(await callRoute(documentPage, { path, params: { id }, cookie: member })).status).toBe(404);
    const res = asResponse(await callRoute(documentPage, { path, params: { id }, cookie: admin }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await res.json<Loaded>();
    expect(data.document).toMatchObject({ id, title: STARTING_DOCUMENTS[0]?.title, status: "published" });
    expect(data.versions).toHaveLength(1);
    expect(data.versions[0]).toMatchObject({ id: data.document.currentVersionId, uploadedBy: "seed" });
    expect(data.maxBytes).toBe(MAX_BYTES);
    const unknown = asResponse(
      await callRoute(documentPage, { path: "/admin/documents/nope", params: { id: "nope" }, cookie: admin }),
    );
    expect(unknown.status).toBe(404);
  });

  it("an admin's edit changes the fields, audited; a bad one is a 400; refused cross-site and to a member", async () => {
    const admin = await signedIn(ADMIN);
    const member = await signedIn("member@example.com");
    const id = await overviewId(admin);
    const path = `/admin/documents/${id}`;
    const edit = {
      intent: "edit",
      title: "Corporate Overview, revised",
      description: "A new description.",
      category: "Corporate",
      venture: "",
      visibility: "members",
    };
    const stored = () =>
      env.DB.prepare("SELECT title, description, visibility FROM documents WHERE id = ?").bind(id).first();
    const original = await stored();
    const cross = asResponse(
      await callRoute(change, { path, params: { id }, form: edit, cookie: admin, headers: CROSS_SITE }),
    );
    expect(cross.status).toBe(403);
    expect(asResponse(await callRoute(change, { path, params: { id }, form: edit, cookie: member })).status).toBe(404);
    const bad = asResponse(
      await callRoute(change, { path, params: { id }, form: { ...edit, title: " " }, cookie: admin }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Please enter a title.");
    expect(await stored()).toEqual(original);

    const done = asResponse(await callRoute(change, { path, params: { id }, form: edit, cookie: admin }));
    expect([done.status, done.headers.get("Location")]).toEqual([303, path]);
    expect(await stored()).toEqual({
      title: edit.title,
      description: edit.description,
      visibility: edit.visibility,
    });
    const page = await asResponse(
      await callRoute(documentPage, { path, params: { id }, cookie: admin }),
    ).json<Loaded>();
    expect(page.document.title).toBe(edit.title);
    const audit = await env.DB.prepare("SELECT actor, action, target FROM audit_log").all();
    expect(audit.results).toEqual([{ actor: ADMIN, action: "document.edit", target: `document ${id}` }]);

    const gone = asResponse(
      await callRoute(change, { path: "/admin/documents/nope", params: { id: "nope" }, form: edit, cookie: admin }),
    );
    expect(gone.status).toBe(404);
  });

  it("unpublishing withdraws a document and publishing brings it back; an unknown intent is a 400", async () => {
    const admin = await signedIn(ADMIN);
    const id = await overviewId(admin);
    const path = `/admin/documents/${id}`;
    const status = async () =>
      (await env.DB.prepare("SELECT status FROM documents WHERE id = ?").bind(id).first<{ status: string }>())?.status;
    const off = asResponse(
      await callRoute(change, { path, params: { id }, form: { intent: "unpublish" }, cookie: admin }),
    );
    expect(off.status).toBe(303);
    expect(await status()).toBe("draft");
    const on = asResponse(
      await callRoute(change, { path, params: { id }, form: { intent: "publish" }, cookie: admin }),
    );
    expect(on.status).toBe(303);
    expect(await status()).toBe("published");
    const unknown = asResponse(await callRoute(change, { path, params: { id }, form: { intent: "x" }, cookie: admin }));
    expect(unknown.status).toBe(400);
    const audit = await env.DB.prepare("SELECT action FROM audit_log ORDER BY id").all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["document.unpublish", "document.publish"]);
  });
});
