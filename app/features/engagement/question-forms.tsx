/**
 * The room's question form (the investor's) and each question's answer form (the owner's, on
 * /admin/rooms/<id>), docs/decisions/119: plain POST forms that work without JavaScript, checked
 * by the same schema in the browser and on the server.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/input";
import { FieldSelect } from "~/components/ui/select";
import { ANSWER_MAX, answerSchema, QUESTION_MAX, questionSchema } from "./questions";

export function QuestionForm({
  action,
  documents,
  lastResult,
}: {
  action: string;
  documents: readonly { id: string; title: string }[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "room-question-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: questionSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("sm", "space-y-3")}>
      <input type="hidden" name="intent" value="ask" />
      <Field label="Your question" field={fields.question}>
        <Textarea field={fields.question} rows={4} maxLength={QUESTION_MAX} />
      </Field>
      {documents.length ? (
        <Field label="About (optional)" field={fields.document}>
          <FieldSelect field={fields.document}>
            <option value="">The room in general</option>
            {documents.map((d) => (
              <option key={d.id} value={d.id}>
                {d.title}
              </option>
            ))}
          </FieldSelect>
        </Field>
      ) : null}
      <p className="text-sm text-muted-foreground">
        The room&rsquo;s owner gets your question with your name, firm and address. If they add the answer to the
        room&rsquo;s questions and answers, other investors see the question and answer without who asked.
      </p>
      <Button type="submit" disabled={navigation.state === "submitting"}>
        Send question
      </Button>
    </Form>
  );
}

export function AnswerForm({
  action,
  question,
  answer,
  faq,
  lastResult,
}: {
  action: string;
  question: number;
  answer: string | null;
  faq: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `room-answer-${question}`,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: { answer: answer ?? "", faq: faq ? "on" : undefined },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: answerSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className="space-y-3">
      <input type="hidden" name="intent" value="answer" />
      <input type="hidden" name="question" value={question} />
      <Field label={answer ? "Your answer (sending it again mails it again)" : "Your answer"} field={fields.answer}>
        <Textarea field={fields.answer} rows={4} maxLength={ANSWER_MAX} />
      </Field>
      <Checkbox field={fields.faq} label="Add it to the room's questions and answers (shown without who asked)" />
      <Button type="submit" variant="outline">
        {answer ? "Send the answer again" : "Send answer"}
      </Button>
    </Form>
  );
}
