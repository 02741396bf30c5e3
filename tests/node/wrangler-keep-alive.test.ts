import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The preload that works around wrangler 4.86's dev proxy (scripts/lib/wrangler-keep-alive.cjs):
// its ProxyWorker patch must still apply to the installed wrangler, and the resend it adds must
// send a failed request once more only while the worker is unchanged.
const require = createRequire(import.meta.url);
const { patchProxyWorker, RETRY_ONCE } = require("../../scripts/lib/wrangler-keep-alive.cjs") as {
  patchProxyWorker: (source: string) => string | null;
  RETRY_ONCE: string;
};

type ProxyData = { userWorkerUrl: { protocol: string; hostname: string; port: string } } | undefined;
type FetchRetryingOnce = (url: URL, request: Request, headers: Headers, current: () => ProxyData) => Promise<Response>;

const WORKER = { userWorkerUrl: { protocol: "http:", hostname: "127.0.0.1", port: "4100" } };
const urlFromParts = (parts: Record<string, string>, base = "http://localhost") => Object.assign(new URL(base), parts);

/** The resend as the ProxyWorker runs it, with `fetch` replaced by `attempts`, one per call. */
function retrying(attempts: Array<(request: Request) => Promise<Response>>) {
  const seen: Array<{ method: string; body: string }> = [];
  const fakeFetch = async (url: URL, request: Request) => {
    seen.push({ method: request.method, body: await request.clone().text() });
    const next = attempts.shift();
    if (!next) throw new Error("more attempts than expected");
    return next(request);
  };
  const make = new Function("fetch", "urlFromParts", "console", `${RETRY_ONCE}\nreturn fetchRetryingOnce;`);
  const logged: string[] = [];
  const fn = make(fakeFetch, urlFromParts, { error: (line: string) => logged.push(line) }) as FetchRetryingOnce;
  return { fn, seen, logged };
}

const post = () => new Request("http://localhost:8787/api/leads", { method: "POST", body: '{"email":"a@example.com"}' });
const target = new URL("http://127.0.0.1:4100/api/leads");
const lost = () => Promise.reject(new TypeError("Network connection lost."));

describe("wrangler-keep-alive: the ProxyWorker patch", () => {
  it("applies to the installed wrangler, and the result is valid JavaScript", () => {
    const file = resolve("node_modules/wrangler/wrangler-dist/ProxyWorker.js");
    const patched = patchProxyWorker(readFileSync(file, "utf8"));
    expect(patched, "wrangler's ProxyWorker.js changed: review the preload").not.toBeNull();
    expect(patched).toContain("fetchRetryingOnce(userWorkerUrl, request, headers, () => this.proxyData)");
    const copy = join(mkdtempSync(join(tmpdir(), "afx-proxy-")), "ProxyWorker.mjs");
    writeFileSync(copy, patched!);
    expect(() => execFileSync(process.execPath, ["--check", copy], { stdio: "pipe" })).not.toThrow();
  });

  it("leaves a source it does not recognise alone", () => {
    expect(patchProxyWorker("export default {}")).toBeNull();
  });

  it("sends a request that failed on an unchanged worker once more, with its body, and logs it", async () => {
    const { fn, seen, logged } = retrying([lost, async () => new Response("created", { status: 201 })]);
    const response = await fn(target, post(), new Headers(), () => WORKER);
    expect(response.status).toBe(201);
    expect(seen).toEqual([
      { method: "POST", body: '{"email":"a@example.com"}' },
      { method: "POST", body: '{"email":"a@example.com"}' },
    ]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^\[wrangler-keep-alive\] ✘ POST \/api\/leads failed .*Network connection lost.*sent once more$/);
  });

  it("does not resend across a reload: wrangler's own handling gets the error", async () => {
    const { fn, seen } = retrying([lost]);
    const moved = { userWorkerUrl: { ...WORKER.userWorkerUrl, port: "4200" } };
    await expect(fn(target, post(), new Headers(), () => moved)).rejects.toThrow("Network connection lost.");
    const paused = retrying([lost]);
    await expect(paused.fn(target, post(), new Headers(), () => undefined)).rejects.toThrow("Network connection lost.");
    expect(seen).toHaveLength(1);
  });

  it("sends at most twice", async () => {
    const { fn, seen } = retrying([lost, lost]);
    await expect(fn(target, post(), new Headers(), () => WORKER)).rejects.toThrow("Network connection lost.");
    expect(seen).toHaveLength(2);
  });
});
