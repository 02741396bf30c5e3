// The public pages' loaders, called directly: what each answers for the request it gets.
import { describe, expect, it } from "vitest";
import { loader as catchAll } from "~/routes/$";
import { loader as home } from "~/routes/_index";
import { loader as documents } from "~/routes/documents._index";
import { loader as documentPath } from "~/routes/documents.$";
import { loader as notifications } from "~/routes/notifications";
import { loader as portfolio } from "~/routes/portfolio";
import { loader as robots } from "~/routes/robots[.]txt";
import { loader as sitemap } from "~/routes/sitemap[.]xml";
import { loader as subsidiary } from "~/routes/subsidiary.$id";
import { STARTING_DOCUMENTS as catalogue } from "~/content/documents";
import { pages } from "~/content/pages";
import { STARTING_VENTURES, VENTURE_ALIASES } from "~/content/ventures";
import { asResponse, callRoute, ORIGIN } from "./route-args";

describe("public loaders", () => {
  it("an unknown path answers 404; the home page's title and description come with its data", async () => {
    expect(asResponse(await callRoute(catchAll, { path: "/nowhere" })).status).toBe(404);
    const { page } = (await callRoute(home, { path: "/" })) as { page: { path: string; title: string } };
    expect(page).toMatchObject({ path: pages.home.path, title: pages.home.title });
  });

  it("/documents lists the seeded library, or one venture's documents by id or alias; a deeper path goes back to it", async () => {
    const all = (await callRoute(documents, { path: "/documents" })) as { documents: unknown[] };
    expect(all.documents).toHaveLength(catalogue.length);
    const venture = STARTING_VENTURES.find((s) => catalogue.some((d) => d.ventureId === s.id));
    if (!venture) throw new Error("no venture with documents");
    const one = (await callRoute(documents, { path: `/documents?subsidiary=${venture.id}` })) as {
      venture: { id: string };
      documents: { ventureId: string | null }[];
    };
    expect(one.venture.id).toBe(venture.id);
    expect(one.documents.length).toBeGreaterThan(0);
    expect(one.documents.every((d) => d.ventureId === venture.id)).toBe(true);
    const [alias, target] = Object.entries(VENTURE_ALIASES)[0] ?? [];
    if (alias) {
      const aliased = (await callRoute(documents, { path: `/documents?subsidiary=${alias}` })) as {
        venture: { id: string } | null;
      };
      expect(aliased.venture?.id).toBe(target);
    }
    const deeper = asResponse(await callRoute(documentPath, { path: "/documents/a/b.pdf" }));
    expect([deeper.status, deeper.headers.get("Location")]).toEqual([302, "/documents?unavailable"]);
    // The page it leads to says so, and offers a visitor the sign-in.
    const said = (await callRoute(documents, { path: "/documents?unavailable" })) as {
      unavailable: boolean;
      member: boolean;
    };
    expect(said).toMatchObject({ unavailable: true, member: false });
    expect(((await callRoute(documents, { path: "/documents" })) as { unavailable: boolean }).unavailable).toBe(false);
  });

  it("/notifications reads its view from the query", async () => {
    const read = (await callRoute(notifications, { path: "/notifications?view=read" })) as {
      notifications: { read: boolean }[];
    };
    expect(read.notifications.every((n) => n.read)).toBe(true);
    const cleared = (await callRoute(notifications, { path: "/notifications?view=cleared" })) as {
      notifications: unknown[];
    };
    expect(cleared.notifications).toEqual([]);
  });

  it("robots.txt and sitemap.xml name the configured site, never the admin pages", async () => {
    const robotsText = await asResponse(await callRoute(robots, { path: "/robots.txt" })).text();
    expect(robotsText).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(robotsText).toContain("Disallow: /admin/");
    const xml = await asResponse(await callRoute(sitemap, { path: "/sitemap.xml" })).text();
    for (const s of STARTING_VENTURES) expect(xml).toContain(`<loc>${ORIGIN}/subsidiary/${s.id}</loc>`);
    expect(xml).not.toContain("/admin");
  });

  it("/subsidiary/:id: a venture, a 301 from an alias, a 404 for no venture", async () => {
    const first = STARTING_VENTURES[0]!;
    const found = (await callRoute(subsidiary, { path: `/subsidiary/${first.id}`, params: { id: first.id } })) as {
      data: { venture: { id: string } };
    };
    expect(found.data.venture.id).toBe(first.id);
    const missing = asResponse(await callRoute(subsidiary, { path: "/subsidiary/nope", params: { id: "nope" } }));
    expect(missing.status).toBe(404);
    const [alias, target] = Object.entries(VENTURE_ALIASES)[0] ?? [];
    if (alias) {
      const moved = asResponse(await callRoute(subsidiary, { path: `/subsidiary/${alias}`, params: { id: alias } }));
      expect([moved.status, moved.headers.get("Location")]).toEqual([301, `/subsidiary/${target}`]);
    }
  });
});

describe("/portfolio", () => {
  it("reads its sectors figure from the group's key facts, as seeded (docs/decisions/102)", async () => {
    const res = asResponse(await callRoute(portfolio, { path: "/portfolio" }));
    expect(res.status).toBe(200);
    const { sectors } = await res.json<{ sectors: { value: string } | null }>();
    expect(sectors?.value).toBe("8");
  });
});
