/**
 * The event form (docs/decisions/095-events.md) of /admin/events and /admin/events/<id>: one POST
 * that works without JavaScript, validated by the same schema in the browser and in the action.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { answerAction, answerMessage, fieldProblems, FormAnswer } from "~/components/form-answer";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Checkbox } from "~/components/ui/checkbox";
import { Input, Textarea } from "~/components/ui/input";
import { FieldSelect } from "~/components/ui/select";
import { PublishSwitches } from "~/features/alerts/publish-switches";
import { VentureSelect } from "~/features/ventures/venture-select";
import { EVENT_LIMITS, eventSchema, type VentureOption } from "~/features/events/event-form";
import type { ZoneOption } from "~/features/events/event-time";
import { useHydrated } from "~/utils/use-hydrated";

/** Each field as the answer box names it. */
const FIELD_LABELS = {
  title: "Title",
  description: "Description",
  start: "Start",
  end: "End",
  timezone: "Time zone",
  location: "Location",
  url: "Link",
  venture: "Venture",
};

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
  /** The zones to offer: the short list (the group's first) and the rest (from the loader, so server and browser agree). */
  zones: { common: readonly ZoneOption[]; rest: readonly ZoneOption[] };
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
    defaultValue: { timezone: zones.common[0]?.value, ...defaultValue },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: eventSchema }),
  });
  const saving = navigation.state === "submitting" && navigation.formAction?.split("#")[0] === action;
  const problems = fieldProblems(fields, FIELD_LABELS);
  // The visitor's own zone joins the short list once the page runs (the server cannot know it).
  const hydrated = useHydrated();
  const own = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  const ownOption = own ? zones.rest.find((z) => z.value === own) : undefined;
  const common = ownOption ? [...zones.common, { ...ownOption, label: `${ownOption.label}, your zone` }] : zones.common;
  const rest = ownOption ? zones.rest.filter((z) => z !== ownOption) : zones.rest;
  return (
    <Form
      method="post"
      action={answerAction(action, form.id)}
      {...getFormProps(form)}
      noValidate
      className={cardClass("lg", "space-y-4")}
    >
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
      <Field label="Time zone (the organiser's; type a place to find it)" field={fields.timezone}>
        <FieldSelect field={fields.timezone}>
          <optgroup label="Often used">
            {common.map((zone) => (
              <option key={zone.value} value={zone.value}>
                {zone.label}
              </option>
            ))}
          </optgroup>
          <optgroup label="Every time zone, by place">
            {rest.map((zone) => (
              <option key={zone.value} value={zone.value}>
                {zone.label}
              </option>
            ))}
          </optgroup>
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
      <FormAnswer formId={form.id} answer={lastResult} message={answerMessage(form, problems)} problems={problems} />
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : submitLabel}
      </Button>
    </Form>
  );
}
