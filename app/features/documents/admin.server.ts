/**
 * The admin's document actions: a new document (upload), a new version, field edits, publish and
 * withdraw, restore a version, delete. The caller has checked the origin and the admin. An upload
 * is streamed to R2 first (upload.server.ts) and the catalogue written after; any refusal or
 * failure on the way deletes the object, so a bad request stores nothing.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/cloudflare";
import type { Admin } from "~/features/auth/guard.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { log } from "~/utils/log.server";
import { readForm } from "~/features/forms/body.server";
import { ventureIds } from "~/features/ventures/catalogue.server";
import { withKnownVenture } from "~/features/ventures/venture-field";
import {
  addVersion,
  createDocument,
  deleteDocument,
  documentWithVersions,
  restoreVersion,
  setStatus,
  updateFields,
  withdrawVersion,
  type StoredFile,
} from "./catalogue.server";
import {
  DOCUMENT_FORMS,
  documentFieldsSchema,
  FILE_ERRORS,
  newVersionSchema,
  tooLargeMessage,
  uploadSchema,
  type DocumentForm,
  type DocumentReply,
} from "./forms";
import { ALERT_OUTCOMES, onDocumentPublished, type AlertOutcome } from "./hooks.server";
import { mailReadersSafely } from "~/features/engagement/updates.server";
import { ADMIN_DOCUMENTS_PATH, adminDocumentPath, stablePath } from "./library";
import { OBJECT_PREFIX, readUpload, type Upload } from "./upload.server";
import { NO_STORE } from "~/utils/no-store";

/** A new R2 key for an upload: random, so two uploads never meet; the catalogue maps it to its hash. */
const newObjectKey = () => `${OBJECT_PREFIX}${crypto.randomUUID()}`;

/** A document id: 12 URL-safe random characters (the stable URL and the admin page hold it). */
export function newDocumentId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_");
}

function formDataOf(fields: Map<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

/** The upload read, or the answer for a refused one (nothing stored). */
async function readFile(request: Request, env: Env): Promise<Upload> {
  return readUpload(request, env.DOCUMENTS, {
    maxBytes: getConfig(env).documentMaxBytes,
    objectKey: newObjectKey(),
  });
}

/** What a refusal adds to the form's reply. */
type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };

/** A refused form's answer, naming the form (the document page's two forms share the action data). */
const answer = (form: DocumentForm, result: unknown, status: number) =>
  json<DocumentReply>({ form, result: result as SubmissionResult<string[]> }, { status, headers: NO_STORE });

/**
 * The answer to an upload that stores nothing: its object (if one was written) deleted, the
 * form's fields sent back with the reason (413 for the size, 400 for the rest).
 */
async function refused(
  env: Env,
  form: DocumentForm,
  upload: Upload,
  submission: { reply: (options?: ReplyOptions) => unknown },
) {
  if (upload.file) await env.DOCUMENTS.delete(upload.file.objectKey);
  const { refusal } = upload;
  const reply = (status: number, options?: ReplyOptions) => answer(form, submission.reply(options), status);
  if (refusal?.kind === "too-large") return reply(413, { formErrors: [tooLargeMessage(refusal.maxBytes)] });
  if (refusal?.kind === "bad-body") return reply(400, { formErrors: [refusal.message] });
  return reply(400, refusal ? { fieldErrors: { file: [FILE_ERRORS[refusal.kind]] } } : undefined);
}

/** Writes the catalogue, or deletes the object when it cannot (nothing half-stored). */
async function orDiscard<T>(env: Env, file: StoredFile, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await env.DOCUMENTS.delete(file.objectKey).catch((e: unknown) =>
      log("error", "[documents] object left for the orphan sweep", { key: file.objectKey, error: e }),
    );
    throw error;
  }
}

/** `POST /admin/documents` (multipart): a new document with its first version. */
export async function uploadDocument(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  admin: Admin,
) {
  const upload = await readFile(request, env);
  const ids = await ventureIds(getDb(env));
  const submission = parseWithZod(formDataOf(upload.fields), { schema: withKnownVenture(uploadSchema, ids) });
  if (submission.status !== "success" || !upload.file) return refused(env, DOCUMENT_FORMS.upload, upload, submission);
  const { file } = upload;
  const { title, description, category, venture, visibility, publish, alert } = submission.value;
  const id = newDocumentId();
  const path = stablePath(id, title);
  await orDiscard(env, file, () =>
    createDocument(getDb(env), {
      id,
      path,
      title,
      description,
      category,
      ventureId: venture || null,
      visibility,
      publish,
      file,
      actor: admin.email,
    }),
  );
  const alerted = publish
    ? await onDocumentPublished(env, ctx, {
        id,
        title,
        description,
        path,
        visibility,
        ventureId: venture || null,
        sha256: file.sha256,
        alert,
      })
    : "not-asked";
  return redirectWithToast(
    env,
    request,
    adminDocumentPath(id),
    { title: publish ? "Document published" : "Document saved as a draft", description: withAlert(title, alerted) },
    { status: 303, headers: NO_STORE },
  );
}

/** `POST /admin/documents/<id>` (multipart): a new version, current at once at the stable URL. */
export async function uploadVersion(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  admin: Admin,
  id: string,
) {
  const gone = () => new Response("No such document.", { status: 404, headers: NO_STORE });
  // An unknown document is refused before a byte of the file is read.
  const before = await documentWithVersions(getDb(env), id);
  if (!before) {
    await request.body?.cancel().catch(() => {});
    throw gone();
  }
  const upload = await readFile(request, env);
  const submission = parseWithZod(formDataOf(upload.fields), { schema: newVersionSchema });
  if (submission.status !== "success" || !upload.file) return refused(env, DOCUMENT_FORMS.version, upload, submission);
  const { file } = upload;
  // Upload pressed again with the same file: the current version's bytes are not a new version.
  const current = before.versions.find((v) => v.id === before.document.currentVersionId);
  if (current?.sha256 === file.sha256) {
    await env.DOCUMENTS.delete(file.objectKey);
    return answer(DOCUMENT_FORMS.version, submission.reply({ fieldErrors: { file: [FILE_ERRORS.same] } }), 400);
  }
  const db = getDb(env);
  const added = await orDiscard(env, file, () => addVersion(db, { id, file, actor: admin.email, publish: false }));
  if (!added) {
    await env.DOCUMENTS.delete(file.objectKey);
    throw gone();
  }
  const after = await documentWithVersions(db, id);
  // The room's readers of an earlier version hear of this one (docs/decisions/119).
  const readers = after?.document.currentVersionId
    ? await mailReadersSafely(env, ctx, db, {
        documentId: id,
        versionId: after.document.currentVersionId,
        title: after.document.title,
        changes: submission.value.changes || null,
      })
    : 0;
  let alerted: AlertOutcome = "not-asked";
  if (after?.document.status === "published") {
    const { title, description, path, visibility, ventureId } = after.document;
    const { alert } = submission.value;
    alerted = await onDocumentPublished(env, ctx, {
      id,
      title,
      description,
      path,
      visibility,
      ventureId,
      sha256: file.sha256,
      alert,
      update: true,
    });
  }
  return redirectWithToast(
    env,
    request,
    adminDocumentPath(id),
    {
      title: "New version uploaded",
      description: withAlert(
        `${file.fileName} is now the current version.${readers ? ` ${readers === 1 ? "One investor" : `${readers} investors`} who read it in a room will be told.` : ""}`,
        alerted,
      ),
    },
    { status: 303, headers: NO_STORE },
  );
}

/** The investor alert for a document's current version, as an upload's "alert" box starts it. */
async function alertCurrentVersion(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  id: string,
): Promise<AlertOutcome> {
  const found = await documentWithVersions(getDb(env), id);
  const current = found?.versions.find((v) => v.id === found.document.currentVersionId);
  if (!found || !current) return "not-asked";
  const { title, description, path, visibility, ventureId } = found.document;
  return onDocumentPublished(env, ctx, {
    id,
    title,
    description,
    path,
    visibility,
    ventureId,
    sha256: current.sha256,
    alert: true,
    // Its first version's alert reads as news; a later one's as an update.
    update: found.versions.length > 1,
  });
}

/** A toast's description with what happened to the investor alert the admin asked for. */
const withAlert = (text: string, alerted: AlertOutcome) =>
  alerted === "not-asked" ? text : `${text} ${ALERT_OUTCOMES[alerted]}`;

/** The document page's small forms, by their `intent`. */
const INTENTS = ["edit", "publish", "unpublish", "restore", "withdraw-version", "delete"] as const;

/**
 * `POST /admin/documents/<id>` (urlencoded): edit the fields, publish or withdraw, make a version
 * current, or delete the document with every file. Unknown document → 404; bad input → 400.
 */
export async function changeDocument(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  admin: Admin,
  id: string,
) {
  const form = await readForm(request, { maxBytes: 8 * 1024 });
  const intent = form.get("intent");
  const db = getDb(env);
  const gone = () => new Response("No such document.", { status: 404, headers: NO_STORE });
  const done = (title: string, to = adminDocumentPath(id), description?: string) =>
    redirectWithToast(env, request, to, { title, description }, { status: 303, headers: NO_STORE });
  switch (intent as (typeof INTENTS)[number]) {
    case "edit": {
      const schema = withKnownVenture(documentFieldsSchema, await ventureIds(db));
      const submission = parseWithZod(form, { schema });
      if (submission.status !== "success") return answer(DOCUMENT_FORMS.edit, submission.reply(), 400);
      const { venture, ...fields } = submission.value;
      if (!(await updateFields(db, id, { ...fields, ventureId: venture || null }, admin.email))) throw gone();
      // An edit never mails anyone: only a new version or a publish with its box ticked does.
      return done("Document saved", undefined, "Investors are not e-mailed about an edit.");
    }
    case "publish":
    case "unpublish":
      if (!(await setStatus(db, id, intent === "publish", admin.email))) throw gone();
      // A draft published later may announce itself too (the same alert per version, once).
      if (intent === "publish" && form.get("alert") === "on") {
        const alerted = await alertCurrentVersion(env, ctx, id);
        return redirectWithToast(
          env,
          request,
          adminDocumentPath(id),
          { title: "Document published", description: withAlert("", alerted).trim() || undefined },
          { status: 303, headers: NO_STORE },
        );
      }
      return done(intent === "publish" ? "Document published" : "Document withdrawn");
    case "restore":
    case "withdraw-version": {
      const versionId = Number(form.get("version"));
      if (!Number.isSafeInteger(versionId) || versionId < 1)
        throw new Response("Bad request: expected a version id.", { status: 400, headers: NO_STORE });
      if (intent === "restore") {
        if (!(await restoreVersion(db, id, versionId, admin.email))) throw gone();
        return done("Version made current");
      }
      // Not one of the document's, the current one, or withdrawn already: nothing to withdraw.
      if (!(await withdrawVersion(db, id, versionId, admin.email))) throw gone();
      return done("Version withdrawn: its own URL serves nothing now");
    }
    case "delete": {
      const keys = await deleteDocument(db, id, admin.email);
      if (!keys) throw gone();
      // The catalogue is already without them: a failed delete leaves orphans for the sweep.
      await env.DOCUMENTS.delete(keys).catch((error: unknown) =>
        log("error", "[documents] objects left for the orphan sweep", { count: keys.length, error }),
      );
      return done("Document deleted", ADMIN_DOCUMENTS_PATH);
    }
    default:
      throw new Response(`Bad request: expected an intent (${INTENTS.join(", ")}).`, {
        status: 400,
        headers: NO_STORE,
      });
  }
}
