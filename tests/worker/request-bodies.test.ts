// Every action's body is read by one capped reader (features/forms/body.server.ts): a wrong
// content type is 415, a body past the cap 413 however it is sent, and the client's mistakes are
// not logged as errors.
import { SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { get, Jar, ORIGIN, signIn } from "./auth-helpers";

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const status = async (path: string, jar: Jar) => (await get(path, jar)).status;

afterEach(() => vi.restoreAllMocks());

describe("every body capped", () => {
  const chunked = (bytes: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode(`message=${"x".repeat(1024)}`);
        for (let sent = 0; sent < bytes; sent += chunk.length) controller.enqueue(chunk);
        controller.close();
      },
    });

  it.each(["/help", "/settings", "/api/logout"])(
    "%s: a wrong content type is 415, a chunked body past the cap 413",
    async (path) => {
      const { jar } = await signIn("bodies@example.com");
      const json = await get(path, jar, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(json.status).toBe(415);
      const big = await get(path, jar, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: chunked(200 * 1024),
        // @ts-expect-error workerd's fetch needs it for a stream body
        duplex: "half",
      });
      expect(big.status).toBe(413);
      expect(await status("/api/auth/user", jar)).toBe(200);
    },
  );

  it("the Help form takes the longest valid message in any script (it posts multipart)", async () => {
    const body = new FormData();
    for (const [k, v] of Object.entries({
      name: "名".repeat(100),
      email: "cjk@example.com",
      subject: "題".repeat(150),
      message: "漢".repeat(5000),
    }))
      body.set(k, v);
    const res = await SELF.fetch(`${ORIGIN}/help`, {
      method: "POST",
      body,
      headers: { "CF-Connecting-IP": "203.0.113.78" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thank you");
    const html = await (await SELF.fetch(`${ORIGIN}/help`)).text();
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
  });

  it("a POST to a page without an action is a quiet 405; a 415 is not logged as an error either", async () => {
    const errors = vi.spyOn(console, "error");
    const res = await SELF.fetch(`${ORIGIN}/portfolio`, form({ a: "b" }));
    expect(res.status).toBe(405);
    await res.arrayBuffer();
    const wrongType = await SELF.fetch(`${ORIGIN}/help`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "x",
    });
    expect(wrongType.status).toBe(415);
    await wrongType.arrayBuffer();
    expect(errors).not.toHaveBeenCalled();
  });
});
