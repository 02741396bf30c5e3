// The error boundary's reports: into the worker's log, capped, limited, with nothing personal.
import { SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanClientError } from "~/features/client-errors/report";

const ORIGIN = "https://afx.test";
afterEach(() => vi.restoreAllMocks());

const post = (body: string, ip: string, type = "application/json") =>
  SELF.fetch(`${ORIGIN}/api/client-errors`, {
    method: "POST",
    headers: { "Content-Type": type, "CF-Connecting-IP": ip, "User-Agent": "Secret-Agent/1.0" },
    body,
  });

describe("POST /api/client-errors", () => {
  it("logs the message and the path, without query, e-mail, long numbers, address or user agent; answers 204", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await post(
      JSON.stringify({
        message: "Cannot read x of ada@example.com card 4111111111111111",
        path: "/help?subject=ada@example.com#contact",
        extra: "dropped",
      }),
      "198.51.100.7",
    );
    expect(res.status).toBe(204);
    // One log() line: the fixed message, then the fields with the cleaned report.
    const call = logged.mock.calls.find(([message]) => message === "client error")!;
    expect(call[1]).toMatchObject({
      level: "error",
      message: "client error",
      report: { message: "Cannot read x of [email] card [number]", path: "/help" },
    });
    expect((call[1] as { requestId?: unknown }).requestId).toEqual(expect.any(String));
    const line = JSON.stringify(call);
    for (const leak of ["ada@example.com", "4111", "198.51.100.7", "Secret-Agent", "subject", "dropped"])
      expect(line).not.toContain(leak);
  });

  it("refuses what is not a report: other methods, other types, oversized or shapeless bodies", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await SELF.fetch(`${ORIGIN}/api/client-errors`)).status).toBe(405);
    expect((await post("message=x", "198.51.100.8", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post(JSON.stringify({ message: "x".repeat(4096), path: "/" }), "198.51.100.8")).status).toBe(413);
    expect((await post("{not json", "198.51.100.8")).status).toBe(400);
    expect((await post(JSON.stringify({ path: "/" }), "198.51.100.8")).status).toBe(400);
  });

  it("is rate-limited per client network (LEADS_RATE_LIMIT 10/600), apart from the forms", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    let statuses: number[] = [];
    // A fixed window that ends mid-loop restarts the count: then the loop runs once more.
    for (const ip of ["203.0.113.98", "203.0.113.99"]) {
      statuses = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await post(JSON.stringify({ message: `boom ${i}`, path: "/" }), ip)).status);
      if (statuses.at(-1) === 429) break;
    }
    expect(statuses).toEqual([...Array(10).fill(204), 429]);
  });

  it("a report's path is a same-site path or '/'", () => {
    expect(cleanClientError({ message: "m", path: "//evil.example/x" })).toEqual({ message: "m", path: "/" });
    expect(cleanClientError({ message: "m", path: "https://evil.example/" })).toEqual({ message: "m", path: "/" });
    expect(cleanClientError({ message: "m", path: `/${"a".repeat(400)}` })!.path).toHaveLength(200);
    expect(cleanClientError({ message: "y".repeat(1000), path: "/" })!.message).toHaveLength(300);
    expect(cleanClientError("nope")).toBeNull();
  });
});

describe("error screen", () => {
  it("a refused request reads 'status: body' under 'Something went wrong'", async () => {
    const res = await SELF.fetch(`${ORIGIN}/help`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ message: "x".repeat(20_000) }).toString(),
    });
    expect(res.status).toBe(413);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Something went wrong<\/h1>/);
    expect(html).toMatch(/<p[^>]*>413: Request body too large \(at most \d+ KiB\)\.<\/p>/);
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
  });
});
