import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { signIn } from "./account";
import { baseURL, launch, newPage } from "./browser";
import { PATHS } from "./content-quality";
import { EVENT_FIXTURE } from "./content-fixtures";

type Message = { type: string; url: string; message: string; extract?: string; lastLine?: number; lastColumn?: number };

/** Line and column (1-based, as the checker counts them) of the character at `offset` of `text`. */
function position(text: string, offset: number) {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/**
 * The inlined stylesheet's extent in a document (components/shell/inline-stylesheet.tsx). The
 * checker's CSS validator predates what Tailwind 4 emits (`@property`, `margin-trim`, custom
 * properties in `transition-property`), so its "CSS:" messages inside that element are Tailwind's
 * build output, not our markup; every other message still counts.
 */
function stylesheetExtent(html: string) {
  const start = html.indexOf('<style id="stylesheet">');
  const end = html.indexOf("</style>", start);
  return start < 0 || end < 0 ? null : { from: position(html, start), to: position(html, end) };
}

const inside = (m: Message, e: NonNullable<ReturnType<typeof stylesheetExtent>>) => {
  const at = (p: { line: number; column: number }) => p.line * 1e9 + p.column;
  const here = at({ line: m.lastLine ?? 0, column: m.lastColumn ?? 0 });
  return here >= at(e.from) && here <= at(e.to);
};

// HTML validity of the content pages as served: the W3C Nu checker (vnu-jar, needs Java).
/**
 * The document as a browser's navigation gets it. Not fetch(): undici always sends
 * `Sec-Fetch-Mode: cors`, for which a page may stream late data (`/blog`'s posts), and Remix v2
 * writes streamed data into a document as inline `<script async>`, which no navigation receives.
 */
function navigate(url: string, cookie?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = { Accept: "text/html", "Sec-Fetch-Mode": "navigate", ...(cookie ? { Cookie: cookie } : {}) };
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      res.on("error", reject);
    }).on("error", reject);
  });
}

/** An admin's session cookie, signed in through the local provider as a person would. */
async function adminCookie(): Promise<string> {
  const browser = await launch();
  try {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    await signIn(page, "admin@example.com", pages.leads.path);
    return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

/** The owners' pages, signed in as an admin: every admin page and one record's page of each kind. */
const ADMIN_PATHS = [
  ...ADMIN_PAGES.map((p) => p.path),
  `${pages.eventsAdmin.path}/${EVENT_FIXTURE.id}`,
  `${pages.eventsAdmin.path}/${EVENT_FIXTURE.id}?confirm=cancel`,
  `${pages.venturesAdmin.path}/${EVENT_FIXTURE.venture}`,
];

describe("W3C Nu HTML checker", () => {
  it("finds no error on any content page nor any of the owners' pages", async () => {
    const dir = mkdtempSync(join(tmpdir(), "afx-vnu-"));
    try {
      const files: Record<string, string> = {};
      const stylesheets: Record<string, ReturnType<typeof stylesheetExtent>> = {};
      const cookie = await adminCookie();
      const visits = [
        ...PATHS.map((path) => ({ path, cookie: undefined })),
        ...ADMIN_PATHS.map((path) => ({ path, cookie })),
      ];
      for (const [i, { path, cookie: session }] of visits.entries()) {
        const file = join(dir, `page-${i}.html`);
        const html = await navigate(`${baseURL()}${path}`, session);
        writeFileSync(file, html);
        files[`file:${file}`] = path;
        stylesheets[`file:${file}`] = stylesheetExtent(html);
        // Every page carries the inlined stylesheet (and so exercises the rule above).
        expect(stylesheets[`file:${file}`], path).not.toBeNull();
      }
      const jar = join(process.cwd(), "node_modules/vnu-jar/build/dist/vnu.jar");
      const run = spawnSync(
        "java",
        [
          // One short batch: the quick compiler alone (C1) halves the JVM's CPU for the same report
          // (10 s to 5 s here); its larger frames need a deeper stack than the checker's 512k.
          "-XX:TieredStopAtLevel=1",
          "-XX:+UseSerialGC",
          "-Xss8m",
          "-jar",
          jar,
          "--errors-only",
          "--format",
          "json",
          ...Object.keys(files).map((f) => f.slice(5)),
        ],
        {
          encoding: "utf8",
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      expect(run.error).toBeUndefined();
      const { messages } = JSON.parse(run.stderr || run.stdout) as { messages: Message[] };
      const tailwind = (m: Message) => m.message.startsWith("CSS: ") && inside(m, stylesheets[m.url]!);
      const errors = messages
        .filter((m) => m.type === "error" && !tailwind(m))
        .map((m) => `${files[m.url] ?? m.url}: ${m.message} ${m.extract ?? ""}`.trim());
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
