// What an admin reads: the library's current version as "v2 · Nov 28, 2026", the audit log in words (titles and version numbers, no hashes or ids), and
// the confirmation steps of a delete, which the loaders read from `?confirm=` so they work
// without JavaScript. The browser walks them at 412 px in tests/e2e/admin-words.test.ts.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { recentAudit } from "~/features/admin/audit.server";
import { auditInWords } from "~/features/admin/audit-words.server";
import { addVersion, createDocument, listForAdmin, restoreVersion } from "~/features/documents/catalogue.server";
import { versionLabel } from "~/features/documents/library";
import { action as newsForm, loader as newsAdmin } from "~/routes/admin.news";
import { loader as documentPage } from "~/routes/admin.documents_.$id";
import { getDb } from "~/utils/db.server";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM news_items"),
    env.DB.prepare("DELETE FROM audit_log"),
    env.DB.prepare("DELETE FROM rate_limits"),
  ]);
});

const tag = Date.now().toString(36);
const file = (n: number) => ({
  objectKey: `test/${tag}-${n}`,
  size: 1000 + n,
  sha256: `${n}`.repeat(64).slice(0, 64),
  fileName: `report-${n}.pdf`,
});

async function aDocument(title: string) {
  const db = getDb(env);
  const id = `W${tag}`.padEnd(12, "x").slice(0, 12);
  await createDocument(db, {
    id,
    path: `/documents/${tag}-words.pdf`,
    title,
    description: "",
    category: "Reports",
    ventureId: null,
    visibility: "public",
    publish: true,
    file: file(1),
    actor: ADMIN,
  });
  await addVersion(db, { id, file: file(2), actor: ADMIN, publish: true });
  return id;
}

describe("the audit log in words", () => {
  it("names documents by title and versions by number, never by id or hash", async () => {
    const db = getDb(env);
    const id = await aDocument("Annual report");
    const [first] = await env.DB.prepare("SELECT id FROM document_versions WHERE document_id = ? ORDER BY id")
      .bind(id)
      .raw<[number]>();
    const listed = async () => (await listForAdmin(db)).find((d) => d.id === id);
    expect(await listed()).toMatchObject({ versionNumber: 2 });
    await restoreVersion(db, id, first![0], ADMIN);
    // The library's "Current version" is the restored one's number and day, not a hash.
    const row = await listed();
    expect(versionLabel(row!.versionNumber, row!.versionUploadedAt!)).toMatch(/^v1 · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const lines = await auditInWords(db, await recentAudit(db, 3));
    expect(lines.map((l) => l.text)).toEqual([
      "An earlier version of “Annual report” made current (v1)",
      "New version of “Annual report” (v2)",
      "New document “Annual report” (published)",
    ]);
    for (const line of lines) {
      expect(line.text).not.toContain(id);
      expect(line.text).not.toMatch(/[0-9a-f]{12}/);
    }
    await env.DB.prepare("DELETE FROM documents WHERE id = ?").bind(id).run();
  });

  it("names news by title, a deleted item as such, and leaves an unknown action as stored", async () => {
    const admin = await signedIn(ADMIN);
    const saved = asResponse(
      await callRoute(newsForm, {
        path: "/admin/news",
        form: { intent: "save", title: "Half-year results", summary: "S", body: "B", venture: "", publish: "on" },
        cookie: admin,
      }),
    );
    const id = new URL(saved.headers.get("Location")!, ORIGIN).searchParams.get("edit");
    await callRoute(newsForm, { path: "/admin/news", form: { intent: "delete", id: id! }, cookie: admin });
    await env.DB.prepare(
      "INSERT INTO audit_log (at, actor, action, target, detail) VALUES (0, 'a@example.com', 'odd.thing', 'x', 'y')",
    ).run();
    const db = getDb(env);
    const texts = (await auditInWords(db, await recentAudit(db, 10))).map((l) => l.text);
    expect(texts).toContain("A news item deleted");
    expect(texts).toContain("odd.thing · x · y");
    expect(texts.some((t) => /^News “Half-year results” published$|^A deleted news item published$/.test(t))).toBe(
      true,
    );
  });
});

describe("the confirmation step of a delete, without JavaScript", () => {
  it("/admin/news?confirm=delete&id=N names the item (and says when its alert was sent); a plain GET does not", async () => {
    const admin = await signedIn(ADMIN);
    const saved = asResponse(
      await callRoute(newsForm, {
        path: "/admin/news",
        form: { intent: "save", title: "To be deleted", summary: "S", body: "B", venture: "" },
        cookie: admin,
      }),
    );
    const id = Number(new URL(saved.headers.get("Location")!, ORIGIN).searchParams.get("edit"));
    const plain = await asResponse(await callRoute(newsAdmin, { path: "/admin/news", cookie: admin })).json<{
      confirmDelete: unknown;
    }>();
    expect(plain.confirmDelete).toBeNull();
    const asked = await asResponse(
      await callRoute(newsAdmin, { path: `/admin/news?confirm=delete&id=${id}`, cookie: admin }),
    ).json<{ confirmDelete: { id: number; title: string } | null }>();
    expect(asked.confirmDelete).toMatchObject({ id, title: "To be deleted" });
    // Asking is not deleting: the item is still there.
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM news_items WHERE id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(row!.n).toBe(1);
  });

  it("a document's page reads ?confirm=delete; any other value asks nothing", async () => {
    const admin = await signedIn(ADMIN);
    const id = await aDocument("Confirm me");
    const read = async (query: string) =>
      (
        await asResponse(
          await callRoute(documentPage, { path: `/admin/documents/${id}${query}`, params: { id }, cookie: admin }),
        ).json<{ confirm: string | null }>()
      ).confirm;
    expect(await read("?confirm=delete")).toBe("delete");
    expect(await read("?confirm=drop")).toBeNull();
    expect(await read("")).toBeNull();
    await env.DB.prepare("DELETE FROM documents WHERE id = ?").bind(id).run();
  });
});
