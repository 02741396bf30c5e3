/**
 * The admin's room forms (docs/rooms.md): each a plain POST that works without JavaScript,
 * validated by the same schema in the browser and in the action (bad input: the errors beside
 * the fields, the typed values kept).
 */
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { documentSchema, inviteSchema, ROOM_LIMITS, roomSchema } from "./forms";

const SELECT = "block h-10 w-full rounded-md border border-border bg-background px-3 text-sm";
const CONTROL =
  "block h-10 w-full rounded-md border border-border bg-background px-3 text-sm aria-[invalid=true]:border-destructive";

export interface Option {
  id: string;
  name: string;
}

/** The room form's values as the inputs hold them. */
export interface RoomFormValues {
  title: string;
  venture: string;
  nda: string;
  downloads?: "on";
  watermark?: "on";
  expires: string;
}

function Checkbox({ field, label }: { field: Parameters<typeof getInputProps>[0]; label: string }) {
  return (
    <div className="flex items-center gap-2">
      <input {...getInputProps(field, { type: "checkbox" })} key={field.key} className="size-4" />
      <label htmlFor={field.id} className="text-sm font-medium">
        {label}
      </label>
    </div>
  );
}

export function RoomForm({
  id,
  action,
  intent,
  ventures,
  defaultValue,
  lastResult,
  submitLabel,
  today,
}: {
  id: string;
  action: string;
  intent?: "settings";
  ventures: readonly Option[];
  defaultValue?: Partial<RoomFormValues>;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  /** YYYY-MM-DD (UTC) from the loader: the earliest expiry. */
  today: string;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: defaultValue ?? { watermark: "on" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roomSchema() }),
  });
  const saving = navigation.state === "submitting" && navigation.formAction === action;
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("lg", "space-y-4")}>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <Field label="Title" field={fields.title}>
        <Input field={fields.title} maxLength={ROOM_LIMITS.title} />
      </Field>
      <Field label="Venture" field={fields.venture}>
        <select {...getSelectProps(fields.venture)} key={fields.venture.key} className={SELECT}>
          <option value="">The group (no venture)</option>
          {ventures.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="NDA (Markdown; empty: none)" field={fields.nda}>
        <Textarea field={fields.nda} rows={6} maxLength={ROOM_LIMITS.nda} />
      </Field>
      <Checkbox field={fields.downloads} label="Allow downloads" />
      <Checkbox field={fields.watermark} label="Watermark each copy with the investor's address and the date" />
      <Field label="Expires (optional, the last day it opens)" field={fields.expires}>
        <input
          {...getInputProps(fields.expires, { type: "date" })}
          key={fields.expires.key}
          min={today}
          className={CONTROL}
        />
      </Field>
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : submitLabel}
      </Button>
    </Form>
  );
}

export function AddDocumentForm({
  action,
  documents,
  lastResult,
}: {
  action: string;
  documents: readonly { id: string; title: string; note: string }[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "room-document-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: documentSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("sm", "space-y-3")}>
      <input type="hidden" name="intent" value="add-document" />
      <Field label="Document from the library" field={fields.document}>
        <select {...getSelectProps(fields.document)} key={fields.document.key} className={SELECT}>
          <option value="">Choose a document</option>
          {documents.map((d) => (
            <option key={d.id} value={d.id}>
              {d.title} ({d.note})
            </option>
          ))}
        </select>
      </Field>
      <Button type="submit">Add document</Button>
    </Form>
  );
}

export function InviteForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "room-invite-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("sm", "space-y-3")}>
      <input type="hidden" name="intent" value="invite" />
      <Field label="E-mail address" field={fields.email}>
        <Input field={fields.email} type="email" autoComplete="off" />
      </Field>
      <Field label="Name" field={fields.name}>
        <Input field={fields.name} maxLength={ROOM_LIMITS.name} autoComplete="off" />
      </Field>
      <Field label="Firm (optional)" field={fields.firm}>
        <Input field={fields.firm} maxLength={ROOM_LIMITS.firm} autoComplete="off" />
      </Field>
      <Button type="submit">Invite investor</Button>
    </Form>
  );
}
