// The public documents page, the sitemap and the venture page over the document library (issue 44).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { hashFiles, inlineStatement, seedStatements } from "~/features/documents/starting.server";
import { get, signIn, type Jar } from "./auth-helpers";
import { putDocument } from "./documents-helpers";
import { REFRESH_AFTER_MS } from "../../worker/known-content";

const page = (path: string, jar?: Jar) => get(path, jar, { headers: { Accept: "text/html" } });

let member: Jar;
beforeAll(async () => {
  member = (await signIn("reader@example.com", { name: "Rita Reader" })).jar;
});

describe("/documents", () => {
  it("lists a published document, cached for visitors, and drops it within seconds when withdrawn by SQL (the cache keyed on the library)", async () => {
    const doc = await putDocument({ title: "Annual Report 2026", category: "Reports" });
    // Put in by SQL, as the operator would: visible within REFRESH_AFTER_MS (a page cached before
    // under the same generation, by this isolate or another file's, may answer until then).
    let html = "";
    await expect
      .poll(async () => (html = await (await page("/documents")).text()), {
        timeout: REFRESH_AFTER_MS + 5_000,
        interval: 500,
      })
      .toContain(`href="${doc.path}" download=""`);
    expect(html).toMatch(/<h2[^>]*>Reports<\/h2>/);
    await expect.poll(async () => (await page("/documents")).headers.get("server-timing")).toMatch(/desc="hit"/);
    // Withdrawn outside the worker (the operator's SQL): once the isolate's copy of the content's
    // generation is refreshed in the background (REFRESH_AFTER_MS), the next page is a new render.
    await env.DB.prepare("UPDATE documents SET status = 'draft', updated_at = ? WHERE id = ?")
      .bind(Date.now(), doc.id)
      .run();
    const started = Date.now();
    await expect
      .poll(async () => (await page("/documents")).headers.get("server-timing"), { timeout: 12_000, interval: 500 })
      .toMatch(/desc="miss"/);
    expect(Date.now() - started).toBeLessThan(REFRESH_AFTER_MS + 5_000);
    expect(await (await page("/documents")).text()).not.toContain("Annual Report 2026");
  });

  it("the admin's unpublish, new version and delete each give visitors a fresh list", async () => {
    const admin = (await signIn("admin@example.com")).jar;
    const doc = await putDocument({ title: "Interim Results" });
    const post = (body: Record<string, string>) =>
      get(`/admin/documents/${doc.id}`, admin, {
        method: "POST",
        body: new URLSearchParams(body),
        headers: { Host: "afx.test", Origin: "https://afx.test" },
      });
    await (await page("/documents")).arrayBuffer();
    await expect.poll(async () => (await page("/documents")).headers.get("server-timing")).toMatch(/desc="hit"/);
    expect((await post({ intent: "unpublish" })).status).toBe(303);
    expect(await (await page("/documents")).text()).not.toContain("Interim Results");
    expect((await post({ intent: "publish" })).status).toBe(303);
    expect(await (await page("/documents")).text()).toContain("Interim Results");
    expect((await post({ intent: "delete" })).status).toBe(303);
    expect(await (await page("/documents")).text()).not.toContain("Interim Results");
  });

  it("shows members-only documents to members alone, marked as such", async () => {
    const doc = await putDocument({ title: "Board Deck Q4", visibility: "members", category: "Presentations" });
    expect(await (await page("/documents")).text()).not.toContain("Board Deck Q4");
    const html = await (await page("/documents", member)).text();
    expect(html).toContain("Board Deck Q4");
    expect(html).toContain(`href="${doc.path}"`);
    expect(html).toMatch(/data-testid="members-only"[^>]*>.*Members only/);
  });

  it("?subsidiary= keeps a venture's own documents; the venture page links them", async () => {
    await putDocument({ title: "VCTR Update", ventureId: "vctr" });
    await putDocument({ title: "Group Update" });
    const html = await (await page("/documents?subsidiary=vctr")).text();
    expect(html).toContain("VCTR Update");
    expect(html).not.toContain("Group Update");
    expect(await (await page("/subsidiary/vctr")).text()).toContain('href="/documents?subsidiary=vctr"');
  });

  it("describes the public documents as DigitalDocuments in its structured data", async () => {
    const doc = await putDocument({ title: "Described Report" });
    await putDocument({ title: "Hidden Deck", visibility: "members" });
    const html = await (await page("/documents", member)).text();
    const ld = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const list = ld.map((s) => JSON.parse(s)).find((j) => j["@type"] === "ItemList");
    const items = list.itemListElement.map(
      (e: { item: { name: string; url: string; encodingFormat: string } }) => e.item,
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        name: "Described Report",
        url: `https://afx.test${doc.path}`,
        encodingFormat: "application/pdf",
      }),
    );
    expect(items.map((i: { name: string }) => i.name)).not.toContain("Hidden Deck");
  });
});

describe("/sitemap.xml", () => {
  it("lists the public documents' files, not the members-only or unpublished ones", async () => {
    const open = await putDocument({ title: "Listed" });
    const members = await putDocument({ visibility: "members" });
    const draft = await putDocument({ status: "draft" });
    const xml = await (await get("/sitemap.xml")).text();
    expect(xml).toContain(`<loc>https://afx.test${open.path}</loc>`);
    expect(xml).toContain("<loc>https://afx.test/documents/corporate/afx-holding-group-overview.pdf</loc>");
    expect(xml).not.toContain(members.path);
    expect(xml).not.toContain(draft.path);
  });
});

describe("the production seed's SQL text", () => {
  it("writes the same catalogue as the seed through the bindings", async () => {
    const files = await hashFiles(
      env.TEST_STARTING_DOCUMENTS.map(({ base64, ...file }) => ({
        ...file,
        bytes: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
      })),
    );
    const rows = () =>
      env.DB.prepare(
        "SELECT d.id, d.path, d.title, d.description, d.category, d.venture_id, d.status, v.object_key, v.size, v.sha256, v.uploaded_at FROM documents d JOIN document_versions v ON v.id = d.current_version_id WHERE v.uploaded_by = 'seed' ORDER BY d.id",
      ).all();
    const seeded = (await rows()).results;
    expect(seeded).toHaveLength(files.length);
    await env.DB.prepare("DELETE FROM documents WHERE id LIKE 'seed-%'").run();
    for (const text of seedStatements(files).map(inlineStatement)) await env.DB.prepare(text).run();
    expect((await rows()).results).toEqual(seeded);
  });
});
