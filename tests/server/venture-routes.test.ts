// The portfolio's catalogue (issue 50, docs/ventures.md): the venture admin's pages and forms, the
// logo's address, and what visitors' pages read from the catalogue, their loaders and actions
// called directly (no build). The cached pages and the no-JavaScript flow: tests/worker/ventures.test.ts.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { beforeEach, describe, expect, it } from "vitest";
import { getLoadContext } from "../../worker/load-context";
import { action as editVenture, loader as venturePage } from "~/routes/admin.ventures_.$id";
import { action as listAction, loader as listPage } from "~/routes/admin.ventures";
import { loader as subsidiaryPage } from "~/routes/subsidiary.$id";
import { loader as logoFile } from "~/routes/ventures.logos.$file";
import { loader as investorsPage } from "~/routes/investors";
import { loader as rootLoader } from "~/root";
import { shortcutsFor } from "~/components/shell/shortcuts";
import { STARTING_VENTURES } from "~/content/ventures";
import { readContentGeneration } from "~/features/content/generation.server";
import { getDb } from "~/utils/db.server";
import { getFlashToast } from "~/utils/flash.server";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

const ID = "fiscal-me";
const PATH = `/admin/ventures/${ID}`;
const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

/** The smallest PNG: one transparent pixel (its IHDR says 1 × 1). */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

const FIELDS = {
  name: "FiscalMe",
  tagline: "Fintech tools for modern finance",
  description:
    "Personal finance and bookkeeping tools that make budgeting, taxes and planning approachable for everyday people and small businesses.",
  stage: "mvp-development",
  website: "https://fiscal-me.example",
  video: "",
};

/** The edit form as a browser without JavaScript sends it (multipart/form-data, same-origin). */
async function postForm(
  fields: Record<string, string>,
  { cookie, logo, headers = {} }: { cookie?: string; logo?: File; headers?: Record<string, string> } = {},
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("logo", logo ?? new File([], "", { type: "application/octet-stream" }));
  const request = new Request(`${ORIGIN}${PATH}`, {
    method: "POST",
    body,
    headers: { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });
  const ctx = createExecutionContext();
  const context = getLoadContext({ request, context: { cloudflare: { env, ctx, cf: {}, caches } as never } });
  try {
    return asResponse(await editVenture({ request, params: { id: ID }, context } as ActionFunctionArgs));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  } finally {
    await waitOnExecutionContext(ctx);
  }
}

const row = () =>
  env.DB.prepare("SELECT tagline, stage, logo, website, video, shown FROM ventures WHERE id = ?").bind(ID).first<{
    tagline: string;
    stage: string;
    logo: string | null;
    website: string | null;
    video: string | null;
    shown: number;
  }>();

/** The public venture page's loader: its data (a deferred answer), or the Response it answered with. */
async function publicVenture(id = ID): Promise<{ status: number; data: Record<string, unknown> }> {
  const answer = await callRoute(subsidiaryPage, { path: `/subsidiary/${id}`, params: { id } });
  return answer instanceof Response
    ? { status: answer.status, data: (await answer.clone().json()) as Record<string, unknown> }
    : { status: 200, data: (answer as unknown as { data: Record<string, unknown> }).data };
}

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM audit_log"), env.DB.prepare("DELETE FROM key_facts")]);
});

/** The toast a redirect carries to the next page, as that page reads it. */
async function toastOf(res: Response) {
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  return (await getFlashToast(env, new Request(ORIGIN, { headers: { Cookie: cookie } }))).toast;
}

describe("/admin/ventures/<id>", () => {
  it("an admin's edit (no JavaScript) changes the tagline and stage everywhere, as a revision with its audit entry; the generation moves", async () => {
    const admin = await signedIn(ADMIN);
    const before = await readContentGeneration(getDb(env));
    const res = await postForm(
      { ...FIELDS, tagline: "Books done while you sleep", stage: "beta-testing" },
      { cookie: admin },
    );
    expect(res.status, await res.clone().text()).toBe(303);
    // The stage changed: the page offers to announce it.
    expect(res.headers.get("Location")).toBe(`${PATH}?announce=1#announce`);
    expect(await row()).toMatchObject({ tagline: "Books done while you sleep", stage: "beta-testing" });
    expect(await readContentGeneration(getDb(env))).not.toBe(before);
    const audit = await env.DB.prepare("SELECT action, target, detail FROM audit_log").all();
    expect(audit.results).toEqual([{ action: "venture.edit", target: `venture ${ID}`, detail: "tagline, stage" }]);
    expect(await toastOf(res)).toMatchObject({ title: "Venture saved", description: "Changed tagline, stage." });
    const root = (await asResponse(await callRoute(rootLoader, { path: "/" })).json()) as {
      ventures: { id: string; tagline: string; status: string }[];
    };
    expect(root.ventures.find((v) => v.id === ID)).toMatchObject({
      tagline: "Books done while you sleep",
      status: "beta-testing",
    });
    const page = asResponse(await callRoute(venturePage, { path: PATH, params: { id: ID }, cookie: admin }));
    const data = (await page.json()) as { revisions: { tagline: string }[] };
    expect(data.revisions[0]?.tagline).toBe("Books done while you sleep");
    expect(data.revisions.at(-1)?.tagline).toBe(FIELDS.tagline);

    // "Restore" on the oldest revision brings the first tagline back (itself a new revision).
    const oldest = await env.DB.prepare("SELECT min(id) AS id FROM venture_revisions WHERE venture_id = ?")
      .bind(ID)
      .first<{ id: number }>();
    const restored = asResponse(
      await callRoute(editVenture, {
        path: PATH,
        params: { id: ID },
        form: { intent: "restore", revision: String(oldest?.id) },
        cookie: admin,
      }),
    );
    expect(restored.status).toBe(303);
    expect(await row()).toMatchObject({ tagline: FIELDS.tagline, stage: "mvp-development" });
  });

  it("'Announce this change' ticked makes a draft news item for the venture; unticked makes none", async () => {
    const admin = await signedIn(ADMIN);
    await env.DB.prepare("DELETE FROM news_items").run();
    const call = (form: Record<string, string>) =>
      callRoute(editVenture, { path: PATH, params: { id: ID }, form, cookie: admin }).then(asResponse);
    expect((await call({ intent: "announce" })).status).toBe(303);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM news_items").first("n")).toBe(0);
    const res = await call({ intent: "announce", announce: "on" });
    expect(res.status).toBe(303);
    const item = await env.DB.prepare("SELECT venture, status, title FROM news_items").first();
    expect(item).toMatchObject({ venture: ID, status: "draft" });
    expect(res.headers.get("Location")).toMatch(/^\/admin\/news\?edit=\d+$/);
  });

  it("a PNG logo is stored by its bytes and served with its type, nosniff and a sandbox", async () => {
    const admin = await signedIn(ADMIN);
    const res = await postForm(FIELDS, { cookie: admin, logo: new File([PNG], "logo.png", { type: "image/png" }) });
    expect(res.status, await res.clone().text()).toBe(303);
    // Said in words, never the columns (logoWidth, logoHeight).
    expect(await toastOf(res)).toMatchObject({ title: "Venture saved", description: "Changed logo." });
    const { logo } = (await row())!;
    expect(logo).toMatch(/^logos\/[0-9a-f]{64}\.png$/);
    const file = logo!.slice("logos/".length);
    const served = asResponse(await callRoute(logoFile, { path: `/ventures/logos/${file}`, params: { file } }));
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(served.headers.get("Content-Security-Policy")).toBe("sandbox");
    expect(served.headers.get("Cache-Control")).toContain("immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const root = (await asResponse(await callRoute(rootLoader, { path: "/" })).json()) as {
      ventures: { id: string; logo?: string }[];
    };
    expect(root.ventures.find((v) => v.id === ID)?.logo).toBe(`/ventures/logos/${file}`);
    const missing = asResponse(await callRoute(logoFile, { path: "/ventures/logos/x.png", params: { file: "x.png" } }));
    expect(missing.status).toBe(404);
  });

  it.each([
    ["an HTML file named logo.png", "<!doctype html><script>alert(1)</script>"],
    ["an SVG named logo.png", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
  ])("%s is refused, naming the accepted types, with the fields kept and nothing stored", async (_, text) => {
    const admin = await signedIn(ADMIN);
    const logos = async () => (await env.DOCUMENTS.list({ prefix: "logos/" })).objects.length;
    const stored = await logos();
    const res = await postForm(
      { ...FIELDS, tagline: "Kept as typed" },
      { cookie: admin, logo: new File([text], "logo.png", { type: "image/png" }) },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    };
    expect(body.result.error.logo?.join(" ")).toMatch(/PNG, JPEG or WebP/);
    expect(body.result.initialValue.tagline).toBe("Kept as typed");
    expect((await row())?.tagline).toBe(FIELDS.tagline);
    expect(await logos()).toBe(stored);
  });

  it("a logo over LOGO_MAX_BYTES is a 413; bad fields are 400s; nothing is stored", async () => {
    const admin = await signedIn(ADMIN);
    const before = await row();
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(PNG);
    expect((await postForm(FIELDS, { cookie: admin, logo: new File([big], "big.png") })).status).toBe(413);
    for (const bad of [
      { website: "http://fiscal-me.example" },
      { website: "https://127.0.0.1" },
      { website: "https://localhost" },
      { video: "not a video" },
      { video: "https://vimeo.com/123456" },
      { tagline: "x".repeat(121) },
      { description: "x".repeat(601) },
      { stage: "unicorn" },
    ]) {
      const res = await postForm({ ...FIELDS, ...bad }, { cookie: admin });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await row()).toEqual(before);
    expect(await env.DB.prepare("SELECT 1 FROM audit_log").first()).toBeNull();
  });

  it("a YouTube address or id is kept as the id", async () => {
    const admin = await signedIn(ADMIN);
    await postForm({ ...FIELDS, video: "https://www.youtube.com/watch?v=AFXtestVid1" }, { cookie: admin });
    expect((await row())?.video).toBe("AFXtestVid1");
    await postForm({ ...FIELDS, video: "" }, { cookie: admin });
    expect((await row())?.video).toBeNull();
  });

  it("a member's and a cross-site POST change nothing; visitors and members get no page", async () => {
    const admin = await signedIn(ADMIN);
    const member = await signedIn("member@example.com");
    const before = await row();
    const changed = { ...FIELDS, tagline: "Changed by someone else" };
    expect([403, 404]).toContain((await postForm(changed, { cookie: member })).status);
    expect((await postForm(changed)).status).toBe(404);
    expect((await postForm(changed, { cookie: admin, headers: CROSS_SITE })).status).toBe(403);
    expect(await row()).toEqual(before);
    expect(asResponse(await callRoute(venturePage, { path: PATH, params: { id: ID } })).status).toBe(404);
    expect(asResponse(await callRoute(venturePage, { path: PATH, params: { id: ID }, cookie: member })).status).toBe(
      404,
    );
    expect(asResponse(await callRoute(listPage, { path: "/admin/ventures", cookie: member })).status).toBe(404);
  });

  it("a fact sourced from a document version shows on the venture's page with its date and that link; an unknown version is refused", async () => {
    const admin = await signedIn(ADMIN);
    const sha = await env.DB.prepare("SELECT sha256 FROM document_versions LIMIT 1").first<string>("sha256");
    const source = `/documents/v/${sha}.pdf`;
    const add = (form: Record<string, string>) =>
      callRoute(editVenture, { path: PATH, params: { id: ID }, form, cookie: admin }).then(asResponse);
    const unknown = await add({
      label: "Users",
      value: "12,000",
      asOf: "2026-10-01",
      source: `/documents/v/${"0".repeat(64)}.pdf`,
    });
    expect(unknown.status).toBe(400);
    expect((await add({ label: "Users", value: "12,000", asOf: "2026-10-01", source: "ftp://x.example" })).status).toBe(
      400,
    );
    expect((await add({ label: "Users", value: "12,000", asOf: "2026-10-01", source })).status).toBe(303);
    const page = await publicVenture();
    expect(page.data.facts).toEqual([expect.objectContaining({ value: "12,000", asOf: "2026-10-01", source })]);
    // A second press adds nothing, and says so.
    const again = await add({ label: "Users", value: "12,000", asOf: "2026-10-01", source });
    expect(await toastOf(again)).toMatchObject({ title: "Already listed" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM key_facts").first("n")).toBe(1);
    // The document's stable URL, or its full address on this site, stores the version current now.
    const doc = await env.DB.prepare(
      "SELECT d.path, d.title, v.sha256 FROM documents d JOIN document_versions v ON v.id = d.current_version_id WHERE d.status = 'published' LIMIT 1",
    ).first<{ path: string; title: string; sha256: string }>();
    for (const [label, given] of [
      ["Stable", doc!.path],
      ["Full", `${env.SITE_URL}${doc!.path}`],
    ] as const) {
      expect((await add({ label, value: "1", asOf: "2026-10-01", source: given })).status).toBe(303);
      const stored = await env.DB.prepare("SELECT source FROM key_facts WHERE label = ?").bind(label).first("source");
      expect(stored).toBe(`/documents/v/${doc!.sha256}.pdf`);
    }
    // Listed by the document's title and version, not a hash path; Remove asks first.
    const admin_page = (await asResponse(
      await callRoute(venturePage, { path: `${PATH}?confirm=remove-fact&fact=1`, params: { id: ID }, cookie: admin }),
    ).json()) as { sourceLabels: Record<string, string>; confirming: number | null };
    expect(admin_page.sourceLabels[`/documents/v/${doc!.sha256}.pdf`]).toMatch(
      new RegExp(`^${doc!.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} · v\\d+ · [A-Z][a-z]{2} \\d{1,2}, \\d{4}$`),
    );
    expect(admin_page.confirming).toBe(1);
    await env.DB.prepare("DELETE FROM key_facts WHERE label IN ('Stable', 'Full')").run();
    // Removed again.
    const fact = await env.DB.prepare("SELECT id FROM key_facts").first<number>("id");
    expect((await add({ intent: "remove-fact", fact: String(fact) })).status).toBe(303);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM key_facts").first("n")).toBe(0);
  });

  it("the group's facts show on /investors", async () => {
    await env.DB.prepare(
      "INSERT INTO key_facts (venture_id, label, value, as_of, source, created_at) VALUES (NULL, 'Ventures', '9', '2026-11-01', 'https://afx.example/report', 0)",
    ).run();
    const data = (await asResponse(await callRoute(investorsPage, { path: "/investors" })).json()) as {
      facts: { value: string; source: string }[];
    };
    expect(data.facts).toEqual([expect.objectContaining({ value: "9", source: "https://afx.example/report" })]);
  });
});

describe("/admin/ventures", () => {
  it("lists every venture with its stage and whether shown; adds a hidden one, which answers as an unknown one until shown", async () => {
    const admin = await signedIn(ADMIN);
    const list = (await asResponse(await callRoute(listPage, { path: "/admin/ventures", cookie: admin })).json()) as {
      ventures: { id: string; stage: string; shown: boolean; path: string }[];
    };
    expect(list.ventures.length).toBeGreaterThanOrEqual(9);
    expect(list.ventures[0]).toMatchObject({ id: ID, shown: true, path: PATH });
    const post = (form: Record<string, string>) =>
      callRoute(listAction, { path: "/admin/ventures", form, cookie: admin }).then(asResponse);
    const created = await post({ intent: "create", id: "new-venture", name: "New Venture" });
    expect(created.status).toBe(303);
    expect(created.headers.get("Location")).toBe("/admin/ventures/new-venture");
    expect((await post({ intent: "create", id: "new-venture", name: "Again" })).status).toBe(400);
    expect((await post({ intent: "create", id: "Bad Id", name: "Bad" })).status).toBe(400);
    const hidden = await publicVenture("new-venture");
    const unknown = await publicVenture("no-such-venture");
    expect(hidden.status).toBe(404);
    expect(hidden).toEqual(unknown);
    // With no tagline or description it cannot be shown, and the list says why.
    const refused = await post({ intent: "show", id: "new-venture" });
    expect(refused.status).toBe(303);
    expect(await toastOf(refused)).toEqual({
      title: "Not shown",
      description: "New Venture has no tagline or description yet: add them on its page first.",
    });
    expect((await publicVenture("new-venture")).status).toBe(404);
    const listed = (await asResponse(await callRoute(listPage, { path: "/admin/ventures", cookie: admin })).json()) as {
      ventures: { id: string; unshowable: string | null }[];
    };
    expect(listed.ventures.find((v) => v.id === "new-venture")?.unshowable).toContain("no tagline or description");

    // Restoring its first revision ("created", empty) keeps the tagline and description it now has.
    await env.DB.prepare(
      "UPDATE ventures SET tagline = 'Fresh', description = 'Something new.' WHERE id = 'new-venture'",
    ).run();
    const first = await env.DB.prepare("SELECT id FROM venture_revisions WHERE venture_id = 'new-venture'").first<{
      id: number;
    }>();
    const restore = asResponse(
      await callRoute(editVenture, {
        path: "/admin/ventures/new-venture",
        params: { id: "new-venture" },
        form: { intent: "restore", revision: String(first!.id) },
        cookie: admin,
      }),
    );
    expect(restore.status).toBe(303);
    expect(await toastOf(restore)).toMatchObject({
      description: expect.stringContaining("Its empty tagline and description were not brought back"),
    });
    expect(await env.DB.prepare("SELECT tagline, description FROM ventures WHERE id = 'new-venture'").first()).toEqual({
      tagline: "Fresh",
      description: "Something new.",
    });

    expect((await post({ intent: "show", id: "new-venture" })).status).toBe(303);
    expect((await publicVenture("new-venture")).status).toBe(200);
    const moved = await post({ intent: "up", id: "new-venture" });
    expect(moved.status).toBe(303);
    // Back to its own row, saying where it went.
    expect(moved.headers.get("Location")).toBe("/admin/ventures#venture-new-venture");
    const order = await env.DB.prepare("SELECT id, name FROM ventures ORDER BY position").all<{
      id: string;
      name: string;
    }>();
    expect(order.results.at(-2)?.id).toBe("new-venture");
    expect(await toastOf(moved)).toEqual({
      title: "New Venture moved up",
      description: `Now ${order.results.length - 1} of ${order.results.length}, before ${order.results.at(-1)!.name}.`,
    });
    expect((await post({ intent: "hide", id: "new-venture" })).status).toBe(303);
    expect((await publicVenture("new-venture")).status).toBe(404);
    await env.DB.prepare("DELETE FROM ventures WHERE id = 'new-venture'").run();
  });

  it("hiding and moving ventures changes Alt + 1 … 9 (and the shortcuts dialog's list) on every page", async () => {
    const admin = await signedIn(ADMIN);
    const post = (form: Record<string, string>) =>
      callRoute(listAction, { path: "/admin/ventures", form, cookie: admin }).then(asResponse);
    /** Where Alt + 1 … 9 go, from the portfolio the root loader gives every page. */
    const altTargets = async () => {
      const root = (await asResponse(await callRoute(rootLoader, { path: "/" })).json()) as {
        ventures: { id: string; name: string }[];
      };
      return shortcutsFor(root.ventures)
        .filter((s) => s.alt && !s.ctrl)
        .map((s) => [s.keys, s.action.type === "navigate" ? s.action.to : s.action.type]);
    };
    const alt = (ids: string[]) => ids.map((id, i) => [`Alt + ${i + 1}`, `/subsidiary/${id}`]);
    const [first, second, third, ...rest] = STARTING_VENTURES.map((s) => s.id);
    // As seeded: the nine in the seed's order.
    expect(await altTargets()).toEqual(alt(STARTING_VENTURES.map((s) => s.id)));
    try {
      expect((await post({ intent: "hide", id: first! })).status).toBe(303);
      expect((await post({ intent: "up", id: third! })).status).toBe(303);
      // The hidden one has no key any more (it would be a not-found page); the moved one takes its place.
      expect(await altTargets()).toEqual(alt([third!, second!, ...rest]));
    } finally {
      await post({ intent: "down", id: third! });
      await post({ intent: "show", id: first! });
    }
    expect(await altTargets()).toEqual(alt(STARTING_VENTURES.map((s) => s.id)));
  });
});
