// The data protocol (docs/decisions/058-data-protocol.md): single fetch is off, and the installed
// tree holds no turbo-stream below 3, so the advisories of turbo-stream 2 are neither reachable
// nor installed. Should the flag come back on, Remix's single fetch meets turbo-stream 3 (which
// yields strings where Remix expects bytes) and the first render fails loudly: shown here with a
// one-route build rendered by our own entry.server.tsx through Remix's request handler.
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/server-runtime";
import { Scripts } from "@remix-run/react";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createElement, Fragment } from "react";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import * as entry from "~/entry.server";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every installed copy of a package, wherever npm nested it. */
function installed(name: string, dir = join(ROOT, "node_modules")): { path: string; version: string }[] {
  const found: { path: string; version: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith("@")) {
      found.push(...installed(name, path));
      continue;
    }
    const pkg = join(path, "package.json");
    if (entry.name === name.split("/").at(-1) && path.endsWith(name)) {
      found.push({ path, version: (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version });
    }
    const nested = join(path, "node_modules");
    try {
      found.push(...installed(name, nested));
    } catch {
      // no nested node_modules
    }
  }
  return found;
}

/** A build of one root route with a loader, rendered by the site's own entry.server.tsx. */
function oneRouteBuild(singleFetch: boolean): ServerBuild {
  const Root = () => createElement(Fragment, null, createElement("p", null, "hello"), createElement(Scripts));
  const future = { ...remixConfig.future, v3_singleFetch: singleFetch };
  return {
    mode: "production",
    future,
    basename: undefined,
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    isSpaMode: false,
    entry: { module: entry },
    routes: { root: { id: "root", path: "", module: { default: Root, loader: () => ({ greeting: "hello" }) } } },
    assets: {
      url: "/manifest.js",
      version: "test",
      entry: { module: "/entry.js", imports: [] },
      routes: {
        root: {
          id: "root",
          path: "",
          module: "/root.js",
          hasLoader: true,
          hasAction: false,
          hasErrorBoundary: false,
          hasClientLoader: false,
          hasClientAction: false,
          imports: [],
        },
      },
    },
  } as unknown as ServerBuild;
}

async function render(singleFetch: boolean): Promise<{ status: number; body: string; logged: string }> {
  const handler = createRequestHandler(oneRouteBuild(singleFetch));
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) =>
    void logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
  try {
    // A crawler's request: the document is rendered whole, as the worker's cache stores it.
    const res = await handler(new Request("http://localhost/", { headers: { "User-Agent": "Googlebot/2.1" } }), {
      nonce: "n",
      requestId: "r",
    } as unknown as AppLoadContext);
    return { status: res.status, body: await res.text(), logged: logged.join("\n") };
  } finally {
    console.error = original;
  }
}

describe("the data protocol", () => {
  it("single fetch is off", () => {
    expect(remixConfig.future?.v3_singleFetch).toBe(false);
  });

  it("no turbo-stream below 3 is installed anywhere, and the lock file agrees", () => {
    const copies = installed("turbo-stream");
    expect(copies.length).toBeGreaterThan(0);
    for (const { path, version } of copies) expect(Number(version.split(".")[0]), path).toBeGreaterThanOrEqual(3);
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    const locked = Object.entries(lock.packages).filter(([path]) => path.endsWith("node_modules/turbo-stream"));
    expect(locked.length).toBeGreaterThan(0);
    for (const [path, { version }] of locked) expect(Number(version?.split(".")[0]), path).toBeGreaterThanOrEqual(3);
  });

  it("renders a page with the flags as configured", async () => {
    const { status, body } = await render(false);
    expect(status).toBe(200);
    expect(body).toContain("<p>hello</p>");
    expect(body).toContain('"greeting":"hello"');
  });

  it("fails loudly at the first render should single fetch come back on", async () => {
    const { status, body, logged } = await render(true);
    // Not a page that quietly lost its data: a 500, logged with the cause.
    expect(status).toBe(500);
    expect(body).not.toContain('"greeting":"hello"');
    expect(logged).toMatch(/render error/);
  });
});
