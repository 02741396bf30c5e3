/**
 * The admin's upload forms (a new document, a new version): a plain multipart POST that works
 * without JavaScript; with it, the same body is sent by XMLHttpRequest (fetch reports no upload
 * progress), so the page shows a progress bar and a Cancel button. The file input comes last: a
 * browser sends the parts in the form's order, so the server has every text field before the file.
 * A refusal lands in the form's answer box above its button, with and without JavaScript
 * (docs/decisions/105-answers-in-view.md).
 */
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { answerAction, answerMessage, fieldProblems, FormAnswer, type FieldProblem } from "~/components/form-answer";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import {
  CHANGES_MAX,
  DESCRIPTION_MAX,
  DOCUMENT_FORMS,
  newVersionSchema,
  overLimitMessage,
  TITLE_MAX,
  uploadSchema,
} from "./forms";
import { DOCUMENT_CATEGORIES, formatBytes, VISIBILITY_LABELS, DOCUMENT_VISIBILITIES } from "./library";

type Result = SubmissionResult<string[]> | undefined;

/** The document fields as an answer box names them. */
export const DOCUMENT_FIELD_LABELS = {
  title: "Title",
  description: "Description",
  category: "Category",
  venture: "Venture",
  visibility: "Visibility",
};
const FILE_LABEL = "PDF file";

interface Sending {
  loaded: number;
  total: number;
  abort: () => void;
}

/** Sends the form by XHR to the route's data URL; a redirect is followed as a navigation. */
function useUpload(routeId: string, onResult: (result: Result) => void) {
  const [sending, setSending] = useState<Sending | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  useEffect(() => () => xhrRef.current?.abort(), []);

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const url = new URL(form.action, window.location.href);
    url.searchParams.set("_data", routeId);
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open("POST", url);
    const abort = () => xhr.abort();
    xhr.upload.addEventListener("progress", (e) =>
      setSending({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0, abort }),
    );
    xhr.addEventListener("load", () => {
      setSending(null);
      const to = xhr.getResponseHeader("X-Remix-Redirect");
      // A document load of the target, so its toast (the redirect's flash cookie) shows at once:
      // a client-side navigation would not reload the root, which reads it.
      if (to) return window.location.assign(to);
      try {
        const data = JSON.parse(xhr.responseText) as { result?: Result; message?: string };
        if (data.result) return onResult(data.result);
        setMessage(data.message ?? `The upload failed (${xhr.status}).`);
      } catch {
        setMessage(`The upload failed (${xhr.status}).`);
      }
    });
    xhr.addEventListener("error", () => {
      setSending(null);
      setMessage("The upload failed: the connection was lost. Nothing was stored.");
    });
    xhr.addEventListener("abort", () => {
      setSending(null);
      setMessage("Upload cancelled. Nothing was stored.");
    });
    setMessage(null);
    setSending({ loaded: 0, total: 0, abort });
    xhr.send(new FormData(form));
  }
  return { send, sending, message, setMessage };
}

function Progress({ sending }: { sending: Sending }) {
  const percent = sending.total ? Math.floor((sending.loaded / sending.total) * 100) : 0;
  return (
    <div className="grid gap-2" data-testid="upload-progress">
      <label htmlFor="upload-progress" className="text-sm">
        Uploading… {percent}% ({formatBytes(sending.loaded)}
        {sending.total ? ` of ${formatBytes(sending.total)}` : ""})
      </label>
      <progress id="upload-progress" max={100} value={percent} className="h-2 w-full accent-primary" />
      <Button variant="outline" className="justify-self-start" onClick={sending.abort}>
        Cancel upload
      </Button>
    </div>
  );
}

function FileInput({ id, name, error, maxBytes }: { id: string; name: string; error?: string[]; maxBytes: number }) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        PDF file (at most {formatBytes(maxBytes)})
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept="application/pdf,.pdf"
        required
        aria-invalid={error?.length ? true : undefined}
        aria-describedby={error?.length ? `${id}-error` : undefined}
        className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-2"
      />
      {error?.length ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

function Checkbox({
  name,
  label,
  id,
  defaultChecked,
}: {
  name: string;
  label: string;
  id: string;
  defaultChecked?: boolean;
}) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} name={name} type="checkbox" defaultChecked={defaultChecked} className="size-4" />
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
    </div>
  );
}

const ALERT_LABEL = "E-mail investor-alert subscribers when published";

/**
 * What both upload forms give conform: the XHR's answer over the page's, and the send by XHR. A
 * file over the limit is refused here, before a byte is sent (the server refuses it too).
 */
function useUploadSubmit(routeId: string, lastResult: Result, maxBytes: number) {
  const navigation = useNavigation();
  const [xhrResult, setXhrResult] = useState<Result>(undefined);
  const { send, sending, message, setMessage } = useUpload(routeId, setXhrResult);
  const answer = xhrResult ?? (navigation.state === "idle" ? lastResult : undefined);
  return {
    sending,
    message,
    answer,
    submitting: navigation.state === "submitting",
    options: {
      lastResult: answer,
      onSubmit: (event: FormEvent<HTMLFormElement>, { submission }: { submission?: { status?: string } }) => {
        const input = event.currentTarget.elements.namedItem("file");
        const chosen = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
        if (chosen && chosen.size > maxBytes) {
          event.preventDefault();
          setMessage(overLimitMessage(chosen.size, maxBytes));
        } else if (submission?.status === "success") send(event);
        else event.preventDefault();
      },
    },
  };
}

/** Both upload forms' frame: the form's own errors, its fields, then the file, the progress or the button. */
function UploadFrame({
  action,
  formProps,
  errors,
  errorId,
  problems,
  file,
  upload,
  submitLabel,
  children,
}: {
  action: string;
  formProps: ReturnType<typeof getFormProps>;
  errors: string[] | undefined;
  errorId: string;
  /** The fields to correct (the file's added here). */
  problems: readonly FieldProblem[];
  file: { id: string; error?: string[]; maxBytes: number };
  upload: Pick<ReturnType<typeof useUploadSubmit>, "sending" | "message" | "submitting" | "answer">;
  submitLabel: string;
  children: ReactNode;
}) {
  const all = file.error?.length ? [...problems, { id: file.id, label: FILE_LABEL, errors: file.error }] : problems;
  return (
    <Form
      method="post"
      action={answerAction(action, formProps.id)}
      encType="multipart/form-data"
      {...formProps}
      className="grid gap-4"
    >
      {children}
      <FileInput id={file.id} name="file" error={file.error} maxBytes={file.maxBytes} />
      <FormAnswer
        formId={formProps.id}
        answer={upload.answer}
        message={answerMessage({ errors, errorId }, all)}
        problems={all}
      />
      {upload.sending ? (
        <Progress sending={upload.sending} />
      ) : (
        <Button type="submit" className="justify-self-start" disabled={upload.submitting}>
          {submitLabel}
        </Button>
      )}
      {upload.message ? (
        <p role="status" className="text-sm" data-testid="upload-message">
          {upload.message}
        </p>
      ) : null}
    </Form>
  );
}

/** A new document: its fields, publish and alert, and the file. */
export function NewDocumentForm({
  action,
  routeId,
  lastResult,
  ventures,
  maxBytes,
}: {
  action: string;
  routeId: string;
  lastResult: Result;
  ventures: readonly { id: string; name: string }[];
  maxBytes: number;
}) {
  const upload = useUploadSubmit(routeId, lastResult, maxBytes);
  const [form, fields] = useForm({
    id: DOCUMENT_FORMS.upload,
    ...upload.options,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: uploadSchema }),
  });
  return (
    <UploadFrame
      action={action}
      formProps={getFormProps(form)}
      errors={form.errors}
      errorId={form.errorId}
      problems={fieldProblems(fields, DOCUMENT_FIELD_LABELS)}
      file={{ id: `${form.id}-file`, error: form.allErrors.file, maxBytes }}
      upload={upload}
      submitLabel="Upload"
    >
      <DocumentFields fields={fields} ventures={ventures} />
      <Checkbox
        id="new-document-publish"
        name={fields.publish.name}
        label="Publish now"
        defaultChecked={fields.publish.initialValue === "on"}
      />
      <Checkbox
        id="new-document-alert"
        name={fields.alert.name}
        label={ALERT_LABEL}
        defaultChecked={fields.alert.initialValue === "on"}
      />
    </UploadFrame>
  );
}

/** A new version of a document: the file, and the alert choice. */
export function NewVersionForm({
  action,
  routeId,
  lastResult,
  maxBytes,
}: {
  action: string;
  routeId: string;
  lastResult: Result;
  maxBytes: number;
}) {
  const upload = useUploadSubmit(routeId, lastResult, maxBytes);
  const [form, fields] = useForm({
    id: DOCUMENT_FORMS.version,
    ...upload.options,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newVersionSchema }),
  });
  return (
    <UploadFrame
      action={action}
      formProps={getFormProps(form)}
      errors={form.errors}
      errorId={form.errorId}
      problems={fieldProblems(fields, { changes: "What changed" })}
      file={{ id: `${form.id}-file`, error: form.allErrors.file, maxBytes }}
      upload={upload}
      submitLabel="Upload new version"
    >
      <Field
        label="What changed (optional: one line, mailed to investors who read it in a room)"
        field={fields.changes}
      >
        <Input field={fields.changes} maxLength={CHANGES_MAX} />
      </Field>
      <Checkbox id="new-version-alert" name={fields.alert.name} label={ALERT_LABEL} />
    </UploadFrame>
  );
}

/** A document's fields, as the upload form and the document page's "Details" both ask for them. */
export function DocumentFields({
  fields,
  ventures,
}: {
  fields: Record<"title" | "description" | "category" | "venture" | "visibility", FieldMetadata<string>>;
  ventures: readonly { id: string; name: string }[];
}) {
  return (
    <>
      <Field label="Title" field={fields.title}>
        <Input field={fields.title} maxLength={TITLE_MAX} />
      </Field>
      <Field label="Description (optional)" field={fields.description}>
        <Textarea field={fields.description} rows={3} maxLength={DESCRIPTION_MAX} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Category" field={fields.category}>
          <Select
            id={fields.category.id}
            name={fields.category.name}
            defaultValue={fields.category.initialValue ?? ""}
            wide
          >
            {DOCUMENT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Venture" field={fields.venture}>
          <Select
            id={fields.venture.id}
            name={fields.venture.name}
            defaultValue={fields.venture.initialValue ?? ""}
            wide
          >
            <option value="">The group</option>
            {ventures.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Visibility" field={fields.visibility}>
          <Select
            id={fields.visibility.id}
            name={fields.visibility.name}
            defaultValue={fields.visibility.initialValue ?? "public"}
            wide
          >
            {DOCUMENT_VISIBILITIES.map((v) => (
              <option key={v} value={v}>
                {VISIBILITY_LABELS[v]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
    </>
  );
}
