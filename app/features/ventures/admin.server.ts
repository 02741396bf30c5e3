/**
 * The venture admin's actions (routes/admin.ventures*.tsx): the caller has checked the origin and
 * the admin. Bad input stores nothing and gets the form back with its fields and the reason.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/cloudflare";
import type { Admin } from "~/features/auth/guard.server";
import { publishedAtPath, publishedVersion } from "~/features/documents/catalogue.server";
import { DOCUMENTS_PATH, versionHashOf, versionPath } from "~/features/documents/library";
import { BodyError, parseForm, readBody } from "~/features/forms/body.server";
import { saveNews } from "~/features/news/news.server";
import { STAGES } from "~/content/ventures";
import { getConfig } from "~/utils/config.server";
import { getDb, type Db } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { ventureById } from "./catalogue.server";
import { addFact, createVenture, moveVenture, removeFact, restoreRevision, saveVenture, setShown } from "./edit.server";
import {
  ADMIN_VENTURES_PATH,
  adminVenturePath,
  ANNOUNCE_ANCHOR,
  factSchema,
  LOGO_TYPES_MESSAGE,
  logoTooLargeMessage,
  newVentureSchema,
  isPublicHttpsUrl,
  ventureAnchor,
  ventureSchema,
} from "./forms";
import { LOGO_PREFIX, sha256Hex, sniffImage } from "./logo.server";
import { changedWords } from "./revisions";
import { NO_STORE } from "~/utils/no-store";

/** Room for the form's text fields beside the logo's bytes. */
const FIELDS_ALLOWANCE = 64 * 1024;

type Reply = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };
const answer = (form: string, result: unknown, status: number) =>
  json({ form, result: result as SubmissionResult<string[]> }, { status, headers: NO_STORE });

const UNKNOWN_DOCUMENT = "No published document of our library has that address.";
const NOT_PUBLIC = "Enter an https:// address with a public host name, or a document of our library.";

/**
 * The source a fact stores: for a document of our library, given by its stable URL, a version's
 * URL or either's full address on this site, the version that is current or named (its own
 * address, which never changes); any other public https:// address as given. Else why not.
 */
async function resolveSource(db: Db, source: string, siteUrl: string): Promise<{ source: string } | { error: string }> {
  let path = source;
  try {
    const url = new URL(source, siteUrl);
    if (url.origin === new URL(siteUrl).origin) path = decodeURIComponent(url.pathname);
  } catch {
    return { error: NOT_PUBLIC };
  }
  if (!path.startsWith(`${DOCUMENTS_PATH}/`)) return isPublicHttpsUrl(source) ? { source } : { error: NOT_PUBLIC };
  const hash = versionHashOf(path);
  const version = hash ? await publishedVersion(db, hash) : await publishedAtPath(db, path);
  return version ? { source: versionPath(version.sha256) } : { error: UNKNOWN_DOCUMENT };
}

const notFound = () => new Response("Not Found", { status: 404, headers: NO_STORE });

/**
 * A key fact's form (`label` …) or its removal (`intent=remove-fact`), for a venture or, with a
 * null venture, the group; null when the form is neither, for the caller's other intents.
 */
async function factAction(
  request: Request,
  env: Env,
  db: Db,
  admin: Admin,
  ventureId: string | null,
  form: FormData,
  back: string,
): Promise<Response | null> {
  const noun = ventureId === null ? "Group fact" : "Fact";
  if (form.has("label")) {
    const submission = parseWithZod(form, { schema: factSchema });
    if (submission.status !== "success") return answer("fact", submission.reply(), 400);
    const resolved = await resolveSource(db, submission.value.source, getConfig(env).siteUrl);
    if ("error" in resolved)
      return answer("fact", submission.reply({ fieldErrors: { source: [resolved.error] } }), 400);
    const added = await addFact(db, ventureId, { ...submission.value, source: resolved.source }, admin.email);
    return redirectWithToast(
      env,
      request,
      back,
      added
        ? { title: `${noun} added`, description: submission.value.label }
        : { title: "Already listed", description: `${submission.value.label}: the same fact is there already.` },
      { status: 303, headers: NO_STORE },
    );
  }
  if (form.get("intent") !== "remove-fact") return null;
  if (!(await removeFact(db, ventureId, Number(form.get("fact")), admin.email))) return notFound();
  return redirectWithToast(env, request, back, { title: `${noun} removed` }, { status: 303, headers: NO_STORE });
}

/** `POST /admin/ventures/<id>`: the edit form (multipart), a fact, a fact's removal, a restore, an announcement. */
export async function ventureAction(request: Request, env: Env, admin: Admin, id: string): Promise<Response> {
  const db = getDb(env);
  const current = await ventureById(db, id);
  if (!current) return notFound();
  const multipart = /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
  const { logoMaxBytes } = getConfig(env);
  let form: FormData;
  try {
    const { bytes } = await readBody(request, { maxBytes: logoMaxBytes + FIELDS_ALLOWANCE, accept: ["form"] });
    form = await parseForm(request, bytes);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    if (error.status === 413 && multipart)
      return answer("venture", { status: "error", error: { "": [logoTooLargeMessage(logoMaxBytes)] } }, 413);
    return new Response(error.message, { status: error.status, headers: NO_STORE });
  }
  if (multipart) return saveForm(request, env, db, admin, current.id, form);

  const here = adminVenturePath(current.id);
  const intent = form.get("intent");
  const fact = await factAction(request, env, db, admin, current.id, form, here);
  if (fact) return fact;
  if (intent === "restore") {
    const restored = await restoreRevision(db, current, Number(form.get("revision")), admin.email);
    if (!restored) return notFound();
    const kept = restored.kept.length
      ? ` Its empty ${restored.kept.join(" and ")} ${restored.kept.length > 1 ? "were" : "was"} not brought back: a venture needs ${restored.kept.length > 1 ? "them" : "it"}, so the current ${restored.kept.length > 1 ? "ones stay" : "one stays"}.`
      : "";
    const what = restored.changed.length ? `Restored ${changedWords(restored.changed)}.` : "It already matched.";
    return redirectWithToast(
      env,
      request,
      here,
      { title: restored.changed.length ? "Revision restored" : "Nothing changed", description: `${what}${kept}` },
      { status: 303, headers: NO_STORE },
    );
  }
  if (intent === "announce") {
    if (form.get("announce") !== "on")
      return redirectWithToast(env, request, here, { title: "Not announced" }, { status: 303, headers: NO_STORE });
    const stage = STAGES[current.stage];
    const saved = await saveNews(db, {
      id: null,
      input: {
        title: `${current.name} is now in ${stage}`,
        summary: `${current.name} has moved to ${stage}.`,
        body: `${current.name} (${current.tagline}) has moved to **${stage}**.\n\n${current.description}`,
        venture: current.id,
        publish: false,
        alert: false,
      },
      actor: admin.email,
      siteUrl: getConfig(env).siteUrl,
    });
    return redirectWithToast(
      env,
      request,
      `/admin/news?edit=${saved?.item.id ?? ""}`,
      { title: "Draft news item created", description: "Review it and publish when ready." },
      { status: 303, headers: NO_STORE },
    );
  }
  return new Response("Bad request: unknown intent.", { status: 400, headers: NO_STORE });
}

/** The edit form: its fields and an optional logo; nothing is stored unless all of it is good. */
async function saveForm(request: Request, env: Env, db: Db, admin: Admin, id: string, form: FormData) {
  const file = form.get("logo");
  const fields = new FormData();
  for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
  const submission = parseWithZod(fields, { schema: ventureSchema });
  const reply = (status: number, options?: Reply) => answer("venture", submission.reply(options), status);
  const { logoMaxBytes } = getConfig(env);
  let logo: { bytes: Uint8Array; type: string; key: string; width: number | null; height: number | null } | null = null;
  if (file instanceof File && file.size > 0) {
    if (file.size > logoMaxBytes) return reply(413, { formErrors: [logoTooLargeMessage(logoMaxBytes)] });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const image = sniffImage(bytes);
    if (!image) return reply(400, { fieldErrors: { logo: [LOGO_TYPES_MESSAGE] } });
    logo = {
      bytes,
      type: image.type,
      key: `${LOGO_PREFIX}${await sha256Hex(bytes)}.${image.ext}`,
      width: image.width,
      height: image.height,
    };
  }
  if (submission.status !== "success") return reply(400, logo ? undefined : undefined);
  const current = await ventureById(db, id);
  if (!current) return notFound();
  // Named by its bytes: a second upload of the same logo writes the same object.
  if (logo) await env.DOCUMENTS.put(logo.key, logo.bytes, { httpMetadata: { contentType: logo.type } });
  const changed = await saveVenture(db, current, submission.value, logo, admin.email);
  const stageChanged = changed.includes("stage");
  return redirectWithToast(
    env,
    request,
    // A stage change lands on its "Announce" step (at the page's top), not at the Save pressed.
    stageChanged ? `${adminVenturePath(id)}?announce=1#${ANNOUNCE_ANCHOR}` : adminVenturePath(id),
    {
      title: changed.length ? "Venture saved" : "Nothing changed",
      description: changed.length ? `Changed ${changedWords(changed)}.` : undefined,
    },
    { status: 303, headers: NO_STORE },
  );
}

/** `POST /admin/ventures`: add a venture (hidden), move one, show or hide one. */
export async function venturesAction(request: Request, env: Env, admin: Admin): Promise<Response> {
  const db = getDb(env);
  let form: FormData;
  try {
    const { bytes } = await readBody(request, { maxBytes: FIELDS_ALLOWANCE, accept: ["form"] });
    form = await parseForm(request, bytes);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return new Response(error.message, { status: error.status, headers: NO_STORE });
  }
  const intent = form.get("intent");
  // The group's key facts (shown on /investors).
  const fact = await factAction(request, env, db, admin, null, form, ADMIN_VENTURES_PATH);
  if (fact) return fact;
  if (intent === "create") {
    const submission = parseWithZod(form, { schema: newVentureSchema });
    if (submission.status !== "success") return answer("create", submission.reply(), 400);
    const created = await createVenture(db, submission.value.id, submission.value.name, admin.email);
    if (!created)
      return answer("create", submission.reply({ fieldErrors: { id: ["A venture already has that id."] } }), 400);
    return redirectWithToast(
      env,
      request,
      adminVenturePath(submission.value.id),
      { title: "Venture added", description: "Hidden until you show it." },
      { status: 303, headers: NO_STORE },
    );
  }
  const current = await ventureById(db, String(form.get("id") ?? ""));
  if (!current) return notFound();
  // Back to the venture's own place in the list, whatever moved.
  const back = `${ADMIN_VENTURES_PATH}#${ventureAnchor(current.id)}`;
  const toast = (title: string, description: string) =>
    redirectWithToast(env, request, back, { title, description }, { status: 303, headers: NO_STORE });
  if (intent === "up" || intent === "down") {
    const moved = await moveVenture(db, current.id, intent === "up" ? -1 : 1, admin.email);
    if (!moved) return toast("Not moved", `${current.name} is already ${intent === "up" ? "first" : "last"}.`);
    return toast(
      `${current.name} moved ${intent}`,
      `Now ${moved.place} of ${moved.of}, ${intent === "up" ? "before" : "after"} ${moved.swappedWith}.`,
    );
  }
  if (intent === "show" || intent === "hide") {
    const refused = await setShown(db, current, intent === "show", admin.email);
    if (refused) return toast("Not shown", refused);
    return toast(
      intent === "show" ? `${current.name} shown` : `${current.name} hidden`,
      intent === "show" ? `On the portfolio at /subsidiary/${current.id}.` : "Visitors no longer see it.",
    );
  }
  return new Response("Bad request: unknown intent.", { status: 400, headers: NO_STORE });
}
