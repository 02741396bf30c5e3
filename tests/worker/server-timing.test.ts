// Where a request's time went (app/utils/timing.server.ts): the worker's own entry first (the
// bench reads it), then every loader and action of the render, each by its route; D1 statements
// only where SERVER_TIMING_DETAIL is on (they would tell one address's signup from another's:
// signup-indistinguishable.test.ts); a slow statement is logged by its name, never its values; a
// stored page shows none of them.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import worker from "../../worker/server";
import { leads } from "~/db/schema";
import { batch, getDb } from "~/utils/db.server";
import { RequestDb } from "~/utils/d1-session.server";
import { Timings } from "~/utils/timing.server";
import { get, signIn } from "./auth-helpers";
import { nextAddress, postJson, signup } from "./leads-helpers";

afterEach(() => vi.restoreAllMocks());

const HTML = { Accept: "text/html,application/xhtml+xml" };
const ORIGIN = "https://afx.test";

interface Metric {
  name: string;
  dur: number;
  desc: string;
}

/** The `Server-Timing` header's metrics, as DevTools reads them. */
function metrics(res: Response): Metric[] {
  return (res.headers.get("server-timing") ?? "")
    .split(/,\s*/)
    .filter(Boolean)
    .map((entry) => {
      const [name = "", ...params] = entry.split(";");
      const value = (key: string) => params.find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1) ?? "";
      return { name, dur: Number(value("dur")), desc: JSON.parse(value("desc") || '""') as string };
    });
}

type Incoming = Parameters<typeof worker.fetch>[0];

/** One request through the worker with SERVER_TIMING_DETAIL set. */
async function withDetail(request: Request, value: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Incoming, { ...env, SERVER_TIMING_DETAIL: value } as Env, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

describe("Server-Timing names a render's phases", () => {
  it("a member page lists the worker and its loaders (at least three entries), each with a duration, and no statement", async () => {
    const { jar } = await signIn("timing@example.com", { name: "Tim Ing" });
    const res = await get("/settings", jar, { headers: HTML });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const all = metrics(res);
    expect(all[0]).toMatchObject({ name: "worker", desc: "bypass" });
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const m of all) expect(Number.isFinite(m.dur) && m.dur >= 0, `${m.name} ${m.desc}`).toBe(true);
    const loaders = all.filter((m) => m.name === "loader").map((m) => m.desc);
    expect(loaders).toEqual(expect.arrayContaining(["root", "routes/settings"]));
    expect(all.map((m) => m.name).filter((n) => n !== "worker" && n !== "loader")).toEqual([]);
    // Names only: no address, no SQL text, no statement.
    expect(res.headers.get("server-timing")).not.toMatch(/@|select|insert|d1|\?/);
  });

  it("an action is timed by its route, without the statements it ran", async () => {
    const res = await postJson(signup());
    expect(res.status).toBe(201);
    const all = metrics(res);
    expect(all.map((m) => `${m.name} ${m.desc}`)).toEqual(["worker bypass", "action routes/api.leads"]);
  });

  it("SERVER_TIMING_DETAIL=on adds each D1 statement by name (local debugging); off or unset, none", async () => {
    const cookie = (await signIn("timing-detail@example.com")).jar.header();
    const page = () => new Request(`${ORIGIN}/settings`, { headers: { ...HTML, Cookie: cookie } });
    const on = metrics(await withDetail(page(), "on"));
    const queries = on.filter((m) => m.name === "d1").map((m) => m.desc);
    // The session lookup (with the shell's ventures), then what the page reads (the member's
    // newsletter lead), each a batch of the reads that share its round trip (decision 125).
    expect(queries.some((q) => /^batch: .*select sessions/.test(q))).toBe(true);
    expect(queries.some((q) => /^batch: .*select leads/.test(q))).toBe(true);
    for (const q of queries) expect(q).toMatch(/^(?:select|insert|update|delete|with|batch: )[a-z_ +]*$/);
    expect(on.filter((m) => m.name === "loader").map((m) => m.desc)).toEqual(
      expect.arrayContaining(["root", "routes/settings"]),
    );
    const post = () =>
      new Request(`${ORIGIN}/api/leads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextAddress() },
        body: JSON.stringify(signup({ email: "timing-detail-signup@example.com" })),
      });
    const batchEntry = metrics(await withDetail(post(), "on")).find(
      (m) => m.name === "d1" && m.desc.startsWith("batch: "),
    );
    expect(batchEntry?.desc).toContain("leads");
    expect(metrics(await withDetail(page(), "off")).some((m) => m.name === "d1")).toBe(false);
    expect(wranglerToml).not.toMatch(/SERVER_TIMING_DETAIL/);
  });

  it("a page from the HTML cache shows only the worker's entry, not the render that stored it", async () => {
    const path = "/consultancy?timing";
    const first = await SELF.fetch(`https://afx.test${path}`, { headers: HTML });
    await first.arrayBuffer();
    expect(metrics(first).some((m) => m.name === "loader")).toBe(true);
    let hit: Metric[] = [];
    for (let i = 0; i < 20 && hit[0]?.desc !== "hit"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const res = await SELF.fetch(`https://afx.test${path}`, { headers: HTML });
      await res.arrayBuffer();
      hit = metrics(res);
    }
    expect(hit).toEqual([expect.objectContaining({ name: "worker", desc: "hit" })]);
  });
});

describe("slow statements are logged by name", () => {
  it("a statement over the threshold is logged once, with its name and duration, never its values", async () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, "warn").mockImplementation((...args) => void lines.push(args));
    const timings = new Timings("8f1e2d3c4b5a6978-FRA");
    const db = new RequestDb(env.DB, "first-primary", false, { timings, slowQueryMs: 0 });
    const secret = "slow.secret@example.com";
    await getDb({ DB: db }).select().from(leads).where(eq(leads.email, secret));
    await batch(getDb({ DB: db }), [getDb({ DB: db }).select().from(leads).where(eq(leads.firstName, "Secretname"))]);

    const slow = lines.filter(([message]) => message === "[d1] slow query");
    expect(slow).toHaveLength(2);
    expect(slow[0]?.[1]).toMatchObject({ level: "warn", statement: "select leads", requestId: "8f1e2d3c4b5a6978-FRA" });
    expect(slow[1]?.[1]).toMatchObject({ statement: "batch: select leads" });
    expect(typeof (slow[0]?.[1] as { ms: unknown }).ms).toBe("number");
    const text = JSON.stringify(slow);
    for (const value of [secret, "Secretname", "where", '"email"']) expect(text).not.toContain(value);
    expect(timings.header({ statements: true })).toMatch(
      /^d1;dur=[\d.]+;desc="select leads", d1;dur=[\d.]+;desc="batch: select leads"$/,
    );
    expect(timings.header()).toBe("");
  });

  it("a statement under the threshold is timed and not logged", async () => {
    const warn = vi.spyOn(console, "warn");
    const timings = new Timings();
    // A threshold no statement reaches, however busy the machine running the test.
    const db = new RequestDb(env.DB, "first-primary", false, { timings, slowQueryMs: 60_000 });
    await getDb({ DB: db }).select({ id: leads.id }).from(leads).limit(1);
    expect(warn).not.toHaveBeenCalled();
    expect(timings.header({ statements: true })).toMatch(/^d1;dur=[\d.]+;desc="select leads"$/);
  });
});

describe("Workers traces and Issues", () => {
  it("both configurations trace a sample of invocations and report Issues, query strings still redacted", () => {
    const section = (name: string) => wranglerToml.split(/^\[/m).find((s) => s.startsWith(`${name}]`)) ?? "";
    for (const prefix of ["", "env.production."]) {
      expect(section(`${prefix}observability`)).toMatch(/^redact_query_string = true$/m);
      expect(section(`${prefix}observability.traces`)).toMatch(/^enabled = true$/m);
      const rate = Number(/^head_sampling_rate = ([\d.]+)$/m.exec(section(`${prefix}observability.traces`))?.[1]);
      expect(rate > 0 && rate <= 1, `${prefix}observability.traces head_sampling_rate`).toBe(true);
      expect(section(`${prefix}observability.issues`)).toMatch(/^enabled = true$/m);
    }
  });
});
