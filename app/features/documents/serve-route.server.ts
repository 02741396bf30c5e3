/**
 * `GET|HEAD /documents/*`: a published document's stable URL, or a version's own URL
 * (docs/decisions/072-document-urls.md). Anything else, an unpublished or deleted document, and a
 * members-only one asked for by anyone but a signed-in member, all redirect to /documents alike
 * (docs/decisions/073-members-only-documents.md): nothing tells that such a file exists.
 */
import { redirect } from "@remix-run/cloudflare";
import { getUser } from "~/features/auth/users.server";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { countDownload, publishedAtPath, publishedVersion } from "./catalogue.server";
import { DOCUMENTS_PATH, UNAVAILABLE_PARAM, versionHashOf } from "./library";
import { fileResponse, IMMUTABLE, MEMBERS_ONLY, REVALIDATE } from "./serve.server";

/** The one answer for every path that serves no file: the library, saying the document is not available. */
export const unknownDocument = () => redirect(`${DOCUMENTS_PATH}?${UNAVAILABLE_PARAM}`, 302);

export async function serveDocument(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
): Promise<Response> {
  const path = decodeURIComponent(new URL(request.url).pathname);
  const db = getDb(env);
  const hash = versionHashOf(path);
  const version = hash ? await publishedVersion(db, hash) : await publishedAtPath(db, path);
  if (!version) return unknownDocument();
  if (version.visibility === "members" && !(await getUser(request, env))) return unknownDocument();
  const cacheControl = version.visibility === "members" ? MEMBERS_ONLY : hash ? IMMUTABLE : REVALIDATE;
  const counted = () =>
    ctx.waitUntil(
      countDownload(db, version.documentId).catch((error: unknown) =>
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
