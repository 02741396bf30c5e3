/**
 * The one reader of request bodies for every action: the content type is checked first (415),
 * then at most `maxBytes` are read whatever `Content-Length` claims, chunked bodies included
 * (413), then the body is parsed (400). Nothing is read into memory past the cap.
 */
import { readCapped } from "~/features/forms/read-capped.server";
import { BARE_NO_STORE } from "~/utils/no-store";

export type BodyKind = "json" | "form";

function bodyKind(contentType: string | null): BodyKind | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") return "form";
  return null;
}

/** A body we refuse, with the status and the sentence that says why. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }

  /** The refusal as a JSON `{ message }` response (APIs, and thrown from page actions). */
  toResponse(): Response {
    return Response.json(
      { message: this.message },
      { status: this.status, headers: { "Cache-Control": BARE_NO_STORE } },
    );
  }
}

/** The body's kind and bytes, for actions that take JSON or a form (`accept`). */
export async function readBody(
  request: Request,
  { maxBytes, accept }: { maxBytes: number; accept: readonly BodyKind[] },
): Promise<{ kind: BodyKind; bytes: Uint8Array<ArrayBuffer> }> {
  const kind = bodyKind(request.headers.get("Content-Type"));
  if (!kind || !accept.includes(kind)) {
    throw new BodyError(
      415,
      accept.includes("json")
        ? "Unsupported content type: send application/json or a form post."
        : "Unsupported content type: send a form post.",
    );
  }
  const tooLarge = new BodyError(413, `Request body too large (at most ${Math.floor(maxBytes / 1024)} KiB).`);
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBytes) throw tooLarge;
  const bytes = request.body ? await readCapped(request.body, maxBytes) : new Uint8Array();
  if (!bytes) throw tooLarge;
  return { kind, bytes };
}

/** Form bytes as FormData, or a 400. */
export async function parseForm(request: Request, bytes: Uint8Array<ArrayBuffer>): Promise<FormData> {
  try {
    return await new Request(request.url, {
      method: "POST",
      headers: { "Content-Type": request.headers.get("Content-Type")! },
      body: bytes,
    }).formData();
  } catch {
    throw new BodyError(400, "Malformed form data.");
  }
}

/**
 * A page action's form post: the FormData, or a thrown 4xx Response (the route's error screen
 * shows its message; nothing is logged as an error). Browsers never meet these: their forms send
 * the right type and stay far below every cap.
 */
export async function readForm(request: Request, { maxBytes }: { maxBytes: number }): Promise<FormData> {
  try {
    const { bytes } = await readBody(request, { maxBytes, accept: ["form"] });
    return await parseForm(request, bytes);
  } catch (error) {
    if (error instanceof BodyError)
      throw new Response(error.message, { status: error.status, headers: { "Cache-Control": BARE_NO_STORE } });
    throw error;
  }
}
