/**
 * `GET|HEAD /documents/*`: a published document's stable URL, or a version's own URL
 * (docs/decisions/072-document-urls.md). Anything else (a malformed path too), an unpublished or
 * deleted document, a withdrawn version, and a members-only one asked for by anyone but a
 * signed-in member, all redirect to /documents alike (docs/decisions/073-members-only-documents.md):
 * nothing tells that such a file exists. An admin previews the unpublished ones by the same links.
 */
import { redirect } from "@remix-run/cloudflare";
import { getUser } from "~/features/auth/users.server";
import { atPrimary } from "~/utils/d1-session.server";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { isAdmin } from "~/features/auth/user";
import { anyVersion, countDownload, publishedAtPath, publishedVersion } from "./catalogue.server";
import { DOCUMENTS_PATH, UNAVAILABLE_PARAM, versionHashOf } from "./library";
import { fileResponse, IMMUTABLE, MEMBERS_ONLY, REVALIDATE } from "./serve.server";

/** The one answer for every path that serves no file: the library, saying the document is not available. */
export const unknownDocument = () => redirect(`${DOCUMENTS_PATH}?${UNAVAILABLE_PARAM}`, 302);

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
  const published = hash ? await publishedVersion(db, hash) : await publishedAtPath(db, path);
  // The session is read only for a file that is not public (a members-only one, or a preview).
  const user = published?.visibility === "public" ? null : await getUser(request, env);
  // An admin previews a draft, a withdrawn document or a withdrawn version by its own links:
  // privately, never counted; anyone else gets the unknown path's answer.
  const preview = !published && isAdmin(user);
  const version = published ?? (preview ? await anyVersion(db, hash ? { sha256: hash } : { path }) : undefined);
  if (!version) return unknownDocument();
  if (version.visibility === "members" && !user) return unknownDocument();
  // A rooms-only document is served only inside a room (docs/rooms.md); an admin still previews it.
  if (version.visibility === "rooms" && !isAdmin(user)) return unknownDocument();
  const cacheControl = preview || version.visibility !== "public" ? MEMBERS_ONLY : hash ? IMMUTABLE : REVALIDATE;
  // Counted in a D1 session of its own: the request's would note a write and give the file's
  // answer a bookmark cookie, which no file answer carries (a shared cache may store it).
  const counted = () => {
    if (preview) return;
    ctx.waitUntil(
      countDownload(getDb(atPrimary(env)), version.documentId).catch((error: unknown) =>
        log("warn", "[documents] download not counted", { error }),
      ),
    );
  };
  const response = await fileResponse(request, env.DOCUMENTS, version, cacheControl, counted);
  if (!response) {
    log("error", "[documents] the catalogue names a missing object", { key: version.objectKey });
    return unknownDocument();
  }
  return response;
}
