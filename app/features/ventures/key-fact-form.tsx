import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { answerAction, answerMessage, fieldProblems, FormAnswer } from "~/components/form-answer";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { factSchema, VENTURE_LIMITS } from "~/features/ventures/forms";

/** Each field as the answer box names it. */
const FIELD_LABELS = { label: "Label", value: "Value", asOf: "As of", source: "Source" };

const DATE_INPUT =
  "block h-10 w-full rounded-md border border-border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring";

/**
 * The form that adds a key fact (label, value, as-of date, source), the group's on /admin/ventures
 * and a venture's on its admin page: one POST that works without JavaScript, checked by the same
 * schema in the browser and the action (docs/ventures.md). Its answer (a refused source) lands in
 * its box above its button (docs/decisions/105-answers-in-view.md).
 */
export function KeyFactForm({
  id,
  action,
  lastResult,
  submitLabel,
}: {
  /** The form's id (its fields' ids derive from it). */
  id: string;
  /** The page it posts to (with its answer's fragment). */
  action: string;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: factSchema }),
  });
  const problems = fieldProblems(fields, FIELD_LABELS);
  return (
    <Form
      method="post"
      action={answerAction(action, form.id)}
      {...getFormProps(form)}
      noValidate
      className={cardClass("lg", "mt-4 grid gap-4 sm:grid-cols-2")}
    >
      <Field label="Label" field={fields.label}>
        <Input field={fields.label} maxLength={VENTURE_LIMITS.label} />
      </Field>
      <Field label="Value" field={fields.value}>
        <Input field={fields.value} maxLength={VENTURE_LIMITS.value} />
      </Field>
      <div className="grid gap-1.5">
        <label htmlFor={fields.asOf.id} className="text-sm font-medium">
          As of
        </label>
        <input
          id={fields.asOf.id}
          name={fields.asOf.name}
          type="date"
          defaultValue={fields.asOf.initialValue as string | undefined}
          aria-invalid={fields.asOf.errors?.length ? true : undefined}
          aria-describedby={fields.asOf.errors?.length ? fields.asOf.errorId : undefined}
          className={DATE_INPUT}
        />
        <FieldErrors field={fields.asOf} />
      </div>
      <Field label="Source (a document of our library by its address, or an https:// address)" field={fields.source}>
        <Input field={fields.source} />
      </Field>
      <div className="grid gap-4 sm:col-span-2">
        <FormAnswer formId={form.id} answer={lastResult} message={answerMessage(form, problems)} problems={problems} />
        <Button type="submit" className="justify-self-start">
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
