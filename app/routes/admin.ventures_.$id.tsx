import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/utils/use-hydrated";
import { StatusBadge, VentureCard } from "~/features/ventures/venture-card";
import { VentureMark } from "~/features/ventures/venture-icon";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field, FieldErrors } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { pages } from "~/content/pages";
import { STAGES, type Venture } from "~/content/ventures";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { ventureAction } from "~/features/ventures/admin.server";
import { KeyFactForm } from "~/features/ventures/key-fact-form";
import { factsOf, revisionsOf, toVenture, ventureById } from "~/features/ventures/catalogue.server";
import {
  adminVenturePath,
  type FormReply,
  STAGE_NAMES,
  VENTURE_LIMITS,
  ventureSchema,
  youtubeId,
} from "~/features/ventures/forms";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { formatDateTime } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.venturesAdmin;
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const venture = await ventureById(db, params.id ?? "");
  if (!venture) throw new Response("Not Found", { status: 404, headers: NO_STORE });
  const [facts, revisions] = await Promise.all([factsOf(db, venture.id), revisionsOf(db, venture.id)]);
  return json(
    {
      venture,
      drawn: toVenture(venture),
      facts,
      revisions: revisions.map(({ id, revisedBy, revisedAt, changed, state }) => ({
        id,
        revisedBy,
        revisedAt,
        changed,
        tagline: (JSON.parse(state) as { tagline?: string }).tagline ?? "",
      })),
      logoMaxBytes: getConfig(env).logoMaxBytes,
    },
    { headers: NO_STORE },
  );
}

/**
 * `POST /admin/ventures/<id>`: multipart/form-data with `name`, `tagline`, `description`, `stage`,
 * `website`, `video` and `logo` saves the venture; a plain form adds a fact (`label`, `value`,
 * `asOf`, `source`) or carries `intent` remove-fact, restore or announce.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  return ventureAction(request, env, admin, params.id ?? "");
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta({
    page: {
      title: data ? `${data.venture.name} · ${page.title}` : page.title,
      description: page.description,
      path: page.path,
    },
    matches,
  }),
  { name: "robots", content: "noindex" },
];

const SELECT =
  "block h-10 w-full rounded-md border border-border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring";
const FILE_INPUT =
  "block w-full text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-2";

export default function VentureAdmin() {
  const { venture, drawn, facts, revisions, logoMaxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const [searchParams] = useSearchParams();
  const here = adminVenturePath(venture.id);
  const result = (name: string) => (actionData && actionData.form === name ? actionData.result : undefined);
  const [form, fields] = useForm({
    id: "venture",
    lastResult: result("venture"),
    defaultValue: {
      name: venture.name,
      tagline: venture.tagline,
      description: venture.description,
      stage: venture.stage,
      website: venture.website ?? "",
      video: venture.video ?? "",
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ventureSchema }),
  });
  // The live preview (JavaScript only): the card and the page's header as the form now stands.
  const hydrated = useHydrated();
  const [preview, setPreview] = useState<Venture>(drawn);
  const onInput = (event: React.FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    const get = (name: string) => String(data.get(name) ?? "");
    const stage = get("stage");
    const video = youtubeId(get("video"));
    setPreview({
      ...drawn,
      name: get("name") || drawn.name,
      tagline: get("tagline"),
      description: get("description"),
      status: stage in STAGES ? (stage as Venture["status"]) : drawn.status,
      ...(video ? { youtubeVideoId: video } : { youtubeVideoId: undefined }),
    });
  };
  return (
    <div className="mx-auto max-w-4xl px-4 pb-16 pt-10">
      <p className="text-sm">
        <Link to={page.path} className="underline underline-offset-4">
          ← {page.title}
        </Link>
      </p>
      <header className="mt-4 flex flex-wrap items-center gap-3">
        <VentureMark venture={drawn} className="size-12" />
        <h1 className="text-3xl font-bold tracking-tight">{venture.name}</h1>
        <StatusBadge status={venture.stage} />
        <span className="text-sm text-muted-foreground">
          {venture.shown ? (
            <a href={`/subsidiary/${venture.id}`} className="underline underline-offset-4">
              Shown at /subsidiary/{venture.id}
            </a>
          ) : (
            "Hidden (show it from the list)"
          )}
        </span>
      </header>

      {searchParams.get("announce") === "1" ? (
        <Form method="post" action={here} className={cardClass("md", "mt-6 flex flex-wrap items-center gap-4")}>
          <input type="hidden" name="intent" value="announce" />
          <label className="inline-flex items-center gap-2 text-sm">
            <input type="checkbox" name="announce" />
            Announce this change
          </label>
          <span className="text-sm text-muted-foreground">
            (a draft news item about the new stage, to review before it is published)
          </span>
          <Button type="submit" variant="outline">
            Continue
          </Button>
        </Form>
      ) : null}

      <Form
        method="post"
        action={here}
        encType="multipart/form-data"
        {...getFormProps(form)}
        noValidate
        onInput={onInput}
        className={cardClass("lg", "mt-6 space-y-4")}
      >
        {form.errors?.length ? (
          <p id={form.errorId} role="alert" className="text-sm text-destructive">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <Field label="Name" field={fields.name}>
          <Input field={fields.name} maxLength={VENTURE_LIMITS.name} />
        </Field>
        <Field label={`Tagline (at most ${VENTURE_LIMITS.tagline} characters)`} field={fields.tagline}>
          <Input field={fields.tagline} />
        </Field>
        <Field label={`Description (at most ${VENTURE_LIMITS.description} characters)`} field={fields.description}>
          <Textarea field={fields.description} rows={4} />
        </Field>
        <div className="grid gap-1.5">
          <label htmlFor={fields.stage.id} className="text-sm font-medium">
            Stage
          </label>
          <select {...getSelectProps(fields.stage)} key={fields.stage.key} className={SELECT}>
            {STAGE_NAMES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          <FieldErrors field={fields.stage} />
        </div>
        <Field label="Website (an https:// address, or empty)" field={fields.website}>
          <Input field={fields.website} inputMode="url" />
        </Field>
        <Field label="Video (a YouTube address or 11-character id, or empty)" field={fields.video}>
          <Input field={fields.video} />
        </Field>
        <div className="grid gap-1.5">
          <label htmlFor="venture-logo" className="text-sm font-medium">
            Logo (PNG, JPEG or WebP, at most {Math.round(logoMaxBytes / 1024)} KiB; empty keeps the current one)
          </label>
          <input
            id="venture-logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby={
              actionData?.form === "venture" && logoErrors(actionData.result) ? "venture-logo-error" : undefined
            }
            className={FILE_INPUT}
          />
          {actionData?.form === "venture" && logoErrors(actionData.result) ? (
            <p id="venture-logo-error" className="text-sm text-destructive">
              {logoErrors(actionData.result)}
            </p>
          ) : null}
        </div>
        <Button type="submit">Save venture</Button>
      </Form>

      {hydrated ? (
        <section aria-labelledby="preview-heading" className="mt-8" data-testid="venture-preview">
          <h2 id="preview-heading" className="text-xl font-semibold">
            Preview
          </h2>
          <div className="mt-4 grid gap-6 sm:grid-cols-2">
            <VentureCard venture={preview} headingLevel={3} />
            <div className={cardClass("lg")}>
              <div className="flex flex-wrap items-center gap-3">
                <VentureMark venture={preview} className="size-12" />
                <p className="text-2xl font-bold">{preview.name}</p>
                <StatusBadge status={preview.status} />
              </div>
              <p className="mt-1 text-muted-foreground">{preview.tagline}</p>
              <p className="mt-4 text-sm text-muted-foreground">{preview.description}</p>
            </div>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="facts-heading" className="mt-10">
        <h2 id="facts-heading" className="text-xl font-semibold">
          Key facts
        </h2>
        {facts.length ? (
          <ul className="mt-4 grid gap-2" data-testid="facts">
            {facts.map((f) => (
              <li key={f.id} className={cardClass("sm", "flex flex-wrap items-center gap-3")}>
                <span className="min-w-0 flex-1 basis-48 wrap-anywhere">
                  <strong>{f.label}</strong>: {f.value} (as of {f.asOf}) ·{" "}
                  <a href={f.source} className="underline underline-offset-4">
                    {f.source}
                  </a>
                </span>
                <Form method="post" action={here}>
                  <input type="hidden" name="intent" value="remove-fact" />
                  <input type="hidden" name="fact" value={f.id} />
                  <Button type="submit" variant="destructive">
                    Remove<span className="sr-only"> {f.label}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-muted-foreground">No key facts yet.</p>
        )}
        <KeyFactForm id="fact" action={here} lastResult={result("fact")} submitLabel="Add fact" />
      </section>

      <section aria-labelledby="revisions-heading" className="mt-10">
        <h2 id="revisions-heading" className="text-xl font-semibold">
          Revisions
        </h2>
        <ol className="mt-4 grid gap-2" data-testid="revisions">
          {revisions.map((r) => (
            <li key={r.id} className={cardClass("sm", "flex flex-wrap items-center gap-3")} data-revision={r.id}>
              <span className="min-w-0 flex-1 basis-48 wrap-anywhere text-sm">
                {formatDateTime(r.revisedAt)} · {r.revisedBy} · {r.changed} · “{r.tagline}”
              </span>
              <Form method="post" action={here}>
                <input type="hidden" name="intent" value="restore" />
                <input type="hidden" name="revision" value={r.id} />
                <Button type="submit" variant="outline">
                  Restore
                </Button>
              </Form>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** The logo's errors in a reply (conform's `error.logo`). */
function logoErrors(result: unknown): string | null {
  const errors = (result as { error?: Record<string, string[] | null> } | undefined)?.error?.logo;
  return errors?.length ? errors.join(" ") : null;
}
