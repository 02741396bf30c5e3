/**
 * The news editor of /admin/news (docs/decisions/074-news-and-feeds.md): one multipart POST that
 * works without JavaScript, validated by the same schema in the browser and in the action, with
 * the body's live preview as the server renders it.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { answerAction, answerMessage, fieldProblems, FormAnswer } from "~/components/form-answer";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useActionData, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import type { NewsItem } from "~/db/schema";
import type { AlertProgress } from "~/features/alerts/alerts.server";
import { PublishSwitches } from "~/features/alerts/publish-switches";
import { NEWS_LIMITS, newsSchema } from "~/features/news/news-form";
import { VentureSelect } from "~/features/ventures/venture-select";
import { formatDateTime, formatInteger } from "~/utils/format";

/** What the page's action answers the form: conform's result and the body rendered. */
export interface NewsActionData {
  result: SubmissionResult<string[]>;
  preview: string;
}

/** "alert sent N of M", while the alert is being queued "(still queuing)". */
export const progressText = (p: { sent: number; total: number; preparing: boolean }) =>
  `alert sent ${formatInteger(p.sent)} of ${formatInteger(p.total)}${p.preparing ? " (still queuing)" : ""}`;

export function NewsEditor({
  action,
  editing,
  editingPreview,
  editingAlert,
  ventures,
}: {
  /** The admin page the form posts to (its action answers NewsActionData). */
  action: string;
  editing: Pick<NewsItem, "id" | "title" | "summary" | "body" | "venture" | "status" | "alert" | "publishedAt"> | null;
  editingPreview: string | null;
  editingAlert: AlertProgress | null;
  ventures: readonly { id: string; name: string }[];
}) {
  const actionData = useActionData<NewsActionData>();
  const navigation = useNavigation();
  const previewer = useFetcher<NewsActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const lastResult =
    navigation.state === "idle" && actionData && "result" in actionData ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: "news-form",
    lastResult,
    defaultValue: editing
      ? {
          title: editing.title,
          summary: editing.summary,
          body: editing.body,
          venture: editing.venture ?? "",
          publish: editing.status === "published" ? "on" : undefined,
          alert: editing.alert ? "on" : undefined,
        }
      : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newsSchema }),
  });
  // The live preview: the body as the server renders it, asked for a moment after typing stops.
  const onBodyInput = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const data = new FormData(formRef.current);
      data.set("intent", "preview");
      previewer.submit(data, { method: "post", action, encType: "multipart/form-data" });
    }, 400);
  };
  const fetched = previewer.data && "preview" in previewer.data ? previewer.data.preview : null;
  const submitted = actionData && "preview" in actionData ? actionData.preview : null;
  const preview = fetched ?? submitted ?? editingPreview;
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const newsProblems = fieldProblems(fields, { title: "Title", summary: "Summary", body: "Body", venture: "Venture" });
  const previewTitle = fields.title.value ?? editing?.title ?? "";
  const previewSummary = fields.summary.value ?? editing?.summary ?? "";
  return (
    <section aria-labelledby="news-form-heading" className="mt-8">
      <h2 id="news-form-heading" className="text-xl font-semibold">
        {editing ? `Edit: ${editing.title}` : "Write news"}
      </h2>
      {editing?.status === "published" ? (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="news-mail-status">
          {editingAlert
            ? `Investors were e-mailed when it was published (${progressText(editingAlert)}).`
            : "No investor alert was sent for it."}{" "}
          Saving an edit never e-mails investors again.
        </p>
      ) : null}
      {editing ? (
        <p className="mt-1 text-sm">
          <Link to={action} className="text-primary underline-offset-4 hover:underline">
            Write a new item instead
          </Link>
        </p>
      ) : null}
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        action={answerAction(action, form.id)}
        {...getFormProps(form)}
        noValidate
        className={cardClass("lg", "mt-4 space-y-4")}
      >
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field label="Title" field={fields.title}>
          <Input field={fields.title} maxLength={NEWS_LIMITS.title} />
        </Field>
        <Field label="Summary (the text of the feed and the alert e-mail)" field={fields.summary}>
          <Textarea field={fields.summary} rows={2} maxLength={NEWS_LIMITS.summary} />
        </Field>
        <div className="grid gap-4 lg:grid-cols-[1fr_16rem]">
          <Field label="Body (Markdown)" field={fields.body}>
            <Textarea field={fields.body} rows={12} maxLength={NEWS_LIMITS.body} onInput={onBodyInput} />
          </Field>
          <MarkdownGuide />
        </div>
        <VentureSelect field={fields.venture} ventures={ventures} />
        <PublishSwitches publish={fields.publish} alert={fields.alert} />
        <FormAnswer
          formId={form.id}
          answer={lastResult}
          message={answerMessage(form, newsProblems)}
          problems={newsProblems}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save" disabled={saving}>
            {saving ? "Saving..." : "Save"}
          </Button>
          <Button type="submit" name="intent" value="preview" variant="outline" formNoValidate>
            Preview
          </Button>
        </div>
      </Form>
      {preview !== null ? (
        <section aria-labelledby="news-preview-heading" className={cardClass("lg", "mt-4")}>
          <h3 id="news-preview-heading" className="text-sm font-semibold uppercase text-muted-foreground">
            Preview
          </h3>
          <p className="mt-3 text-2xl font-bold tracking-tight [overflow-wrap:anywhere]" data-testid="preview-title">
            {previewTitle || "(no title yet)"}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {editing?.publishedAt ? formatDateTime(editing.publishedAt) : "Dated the day it is published"}
          </p>
          {previewSummary ? (
            <p className="mt-2 text-muted-foreground [overflow-wrap:anywhere]" data-testid="preview-summary">
              {previewSummary}
            </p>
          ) : null}
          {/* The server's rendering: raw HTML off, links and images judged (markdown.server.ts). */}
          <div className="news-body mt-3" dangerouslySetInnerHTML={{ __html: preview }} />
        </section>
      ) : null}
    </section>
  );
}

/** What the body's Markdown may use, beside the body (markdown.server.ts decides; this says it). */
function MarkdownGuide() {
  return (
    <aside aria-labelledby="markdown-guide-heading" className="text-sm text-muted-foreground">
      <h3 id="markdown-guide-heading" className="font-medium text-foreground">
        Markdown in the body
      </h3>
      <ul className="mt-2 grid gap-1 [overflow-wrap:anywhere]">
        <li>
          <code>**bold**</code>, <code>*italic*</code>, <code>`code`</code>
        </li>
        <li>
          <code>## Heading</code>, <code>- list item</code>, <code>1. numbered</code>, <code>&gt; quote</code>
        </li>
        <li>
          <code>[text](https://…)</code>: links to http(s), mailto: or a page of this site; any other link shows its
          text only.
        </li>
        <li>
          <code>![alt](…)</code>: no images; an image shows as its alt text.
        </li>
        <li>HTML is shown as text, never run.</li>
        <li>A blank line starts a new paragraph.</li>
      </ul>
    </aside>
  );
}
