/**
 * The event form (docs/decisions/095-events.md) of /admin/events and /admin/events/<id>: one POST
 * that works without JavaScript, validated by the same schema in the browser and in the action.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Checkbox } from "~/components/ui/checkbox";
import { Input, Textarea } from "~/components/ui/input";
import { FieldSelect } from "~/components/ui/select";
import { PublishSwitches } from "~/features/alerts/publish-switches";
import { VentureSelect } from "~/features/ventures/venture-select";
import { EVENT_LIMITS, eventSchema, type VentureOption } from "~/features/events/event-form";

const CONTROL =
  "block h-10 w-full rounded-md border border-border bg-background px-3 text-sm aria-[invalid=true]:border-destructive";

/** The form's values as strings, as the inputs hold them. */
export interface EventFormValues {
  title: string;
  description: string;
  start: string;
  end: string;
  timezone: string;
  allDay?: "on";
  location: string;
  url: string;
  venture: string;
  publish?: "on";
  alert?: "on";
}

export function EventForm({
  action,
  zones,
  ventures,
  defaultValue,
  lastResult,
  submitLabel,
}: {
  action: string;
  /** The zones to offer, the group's first (from the loader, so server and browser agree). */
  zones: readonly string[];
  /** The ventures the select offers (the catalogue, from the loader). */
  ventures: readonly VentureOption[];
  defaultValue?: Partial<EventFormValues>;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "event-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: { timezone: zones[0], ...defaultValue },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: eventSchema }),
  });
  const saving = navigation.state === "submitting" && navigation.formAction === action;
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("lg", "space-y-4")}>
      <input type="hidden" name="intent" value="save" />
      <Field label="Title" field={fields.title}>
        <Input field={fields.title} maxLength={EVENT_LIMITS.title} />
      </Field>
      <Field label="Description (Markdown)" field={fields.description}>
        <Textarea field={fields.description} rows={6} maxLength={EVENT_LIMITS.description} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Start" field={fields.start}>
          <input
            {...getInputProps(fields.start, { type: "datetime-local" })}
            key={fields.start.key}
            className={CONTROL}
          />
        </Field>
        <Field label="End" field={fields.end}>
          <input {...getInputProps(fields.end, { type: "datetime-local" })} key={fields.end.key} className={CONTROL} />
        </Field>
      </div>
      <Field label="Time zone (the organiser's)" field={fields.timezone}>
        <FieldSelect field={fields.timezone}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </FieldSelect>
      </Field>
      <Checkbox field={fields.allDay} label="All day (the dates of start and end, their times ignored)" />
      <Field label="Location" field={fields.location}>
        <Input field={fields.location} maxLength={EVENT_LIMITS.location} />
      </Field>
      <Field label="Link (https://, a webcast or the venue)" field={fields.url}>
        <Input field={fields.url} maxLength={EVENT_LIMITS.url} inputMode="url" />
      </Field>
      <VentureSelect field={fields.venture} ventures={ventures} />
      <PublishSwitches publish={fields.publish} alert={fields.alert} />
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : submitLabel}
      </Button>
    </Form>
  );
}
