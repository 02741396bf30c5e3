/**
 * The admin's document forms (conform + zod, the browser's check and the server's alike). The
 * file itself is judged on the server by its bytes (upload.server.ts), never here.
 */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { optionalText, requiredText } from "~/features/forms/text-field";
import { ventureField } from "~/features/ventures/venture-field";
import { DOCUMENT_CATEGORIES, DOCUMENT_VISIBILITIES, formatBytes } from "./library";

export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 500;

/** A document's own fields: the upload form's and the edit form's. */
export const documentFieldsSchema = z.object({
  title: requiredText("title", TITLE_MAX),
  description: optionalText("description", DESCRIPTION_MAX),
  category: z.enum(DOCUMENT_CATEGORIES, { message: "Please choose one of the categories." }),
  // Empty: the group's own document.
  venture: ventureField(),
  visibility: z.enum(DOCUMENT_VISIBILITIES, { message: "Please choose public, members only or rooms only." }),
});

/** The upload form: the fields, publish at once, and e-mail the investor alerts on publishing. */
export const uploadSchema = documentFieldsSchema.extend({
  publish: z.boolean().default(false),
  alert: z.boolean().default(false),
});

/** A new version of a document. */
/** The one line a room's readers are told changed (docs/decisions/119). */
export const CHANGES_MAX = 200;

export const newVersionSchema = z.object({
  alert: z.boolean().default(false),
  changes: optionalText("description of the change", CHANGES_MAX),
});

/** What the file field says when the server refuses the file (the rest of the form is kept). */
export const FILE_ERRORS = {
  "not-pdf": "This file is not a PDF.",
  "no-file": "Choose a file: a PDF to upload.",
  same: "This file is the current version already: nothing was stored.",
} as const;

/** The refusal of a file over the limit (413): nothing of it is kept (upload.server.ts). */
export const tooLargeMessage = (maxBytes: number) =>
  `The file is larger than the limit of ${formatBytes(maxBytes)}: nothing was stored.`;

/** The browser's own refusal of a chosen file over the limit, before a byte is sent. */
export const overLimitMessage = (size: number, maxBytes: number) =>
  `This file is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)}: choose a smaller file. Nothing was sent.`;

/** The admin's document forms by their ids: a refusal names the form it answers (two share a page). */
export const DOCUMENT_FORMS = { upload: "new-document", version: "new-version", edit: "edit-document" } as const;
export type DocumentForm = (typeof DOCUMENT_FORMS)[keyof typeof DOCUMENT_FORMS];

/** An action's answer to a refused document form: which form, and conform's result (fields kept, errors). */
export interface DocumentReply {
  form: DocumentForm;
  result: SubmissionResult<string[]>;
}
