/**
 * `GET|HEAD /documents/*`: a published document's stable URL, or a version's own URL
 * (docs/decisions/072-document-urls.md). Anything else, an unpublished or deleted document, and a
 * members-only one asked for by anyone but a signed-in member, all redirect to /documents alike
 * (docs/decisions/073-members-only-documents.md): nothing tells that such a file exists.
 */
import { redirect } from "@remix-run/cloudflare";
import { getUser } from "~/features/auth/users.server";
import { atPrimary } from "~/utils/d1-session.server";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { countDownload, publishedAtPath, publishedVersion } from "./catalogue.server";
import { DOCUMENTS_PATH, versionHashOf } from "./library";
import { fileResponse, IMMUTABLE, MEMBERS_ONLY, REVALIDATE } from "./serve.server";

/** The one answer for every path that serves no file. */
export const unknownDocument = () => redirect(DOCUMENTS_PATH, 302);

export async function serveDocument(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
): Promise<Response> {
  let path: string;
  try {
    path = decodeURIComponent(new URL(request.url).pathname);
  } catch {
    // A malformed percent-encoding (`%ZZ`, a cut-off `%E0%A4%A`) names no file either.
    return unknownDocument();
  }
  const db = getDb(env);
  const hash = versionHashOf(path);
  const version = hash ? await publishedVersion(db, hash) : await publishedAtPath(db, path);
  if (!version) return unknownDocument();
  if (version.visibility === "members" && !(await getUser(request, env))) return unknownDocument();
  const cacheControl = version.visibility === "members" ? MEMBERS_ONLY : hash ? IMMUTABLE : REVALIDATE;
  // Counted in a D1 session of its own: the request's would note a write and give the file's
  // answer a bookmark cookie, which no file answer carries (a shared cache may store it).
  const counted = () =>
    ctx.waitUntil(
      countDownload(getDb(atPrimary(env)), version.documentId).catch((error: unknown) =>
        log("warn", "[documents] download not counted", { error }),
      ),
    );
  const response = await fileResponse(request, env.DOCUMENTS, version, cacheControl, counted);
  if (!response) {
    log("error", "[documents] the catalogue names a missing object", { key: version.objectKey });
    return unknownDocument();
  }
  return response;
}
