import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/utils/use-hydrated";
import { answerAction, answerMessage, fieldProblems, FormAnswer } from "~/components/form-answer";
import { StatusBadge, VentureCard } from "~/features/ventures/venture-card";
import { VentureMark } from "~/features/ventures/venture-icon";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { FieldSelect } from "~/components/ui/select";
import { pages } from "~/content/pages";
import { STAGES, type Venture } from "~/content/ventures";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { ventureAction } from "~/features/ventures/admin.server";
import { KeyFactForm } from "~/features/ventures/key-fact-form";
import { revisionWords } from "~/features/ventures/revisions";
import { factSourceLabels, factsOf, revisionsOf, toVenture, ventureById } from "~/features/ventures/catalogue.server";
import { factToConfirm, KeyFactList } from "~/features/ventures/key-fact-list";
import {
  adminVenturePath,
  ANNOUNCE_ANCHOR,
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
  const sourceLabels = await factSourceLabels(db, facts);
  return json(
    {
      venture,
      drawn: toVenture(venture),
      facts,
      sourceLabels,
      confirming: factToConfirm(request),
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

/** The Restore buttons' one answer box, above the revisions. */
const RESTORE_FORM = "restore";

/** Each field of the edit form as its answer box names it. */
const FIELD_LABELS = {
  name: "Name",
  tagline: "Tagline",
  description: "Description",
  stage: "Stage",
  website: "Website",
  video: "Video",
};

const FILE_INPUT =
  "block w-full text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-2";

export default function VentureAdmin() {
  const { venture, drawn, facts, sourceLabels, confirming, revisions, logoMaxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const [searchParams] = useSearchParams();
  const here = adminVenturePath(venture.id);
  const result = (name: string) => (actionData && actionData.form === name ? actionData.result : undefined);
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
        // A stage change's save lands here (its redirect names this anchor).
        <Form
          method="post"
          action={here}
          id={ANNOUNCE_ANCHOR}
          className={cardClass("md", "mt-6 flex scroll-mt-24 flex-wrap items-center gap-4")}
        >
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

      {/* Keyed by the stored version: after any change (a save, a restore) the form and its
          preview start again from what is stored, so the next Save never writes older values back. */}
      <VentureEditor
        key={venture.updatedAt}
        venture={venture}
        drawn={drawn}
        logoMaxBytes={logoMaxBytes}
        lastResult={result("venture")}
      />

      <section aria-labelledby="facts-heading" className="mt-10">
        <h2 id="facts-heading" className="text-xl font-semibold">
          Key facts
        </h2>
        <KeyFactList facts={facts} sourceLabels={sourceLabels} path={here} confirming={confirming} testId="facts" />
        <KeyFactForm id="fact" action={here} lastResult={result("fact")} submitLabel="Add fact" />
      </section>

      <section aria-labelledby="revisions-heading" className="mt-10">
        <h2 id="revisions-heading" className="text-xl font-semibold">
          Revisions
        </h2>
        {/* Where a Restore lands without JavaScript; its answer is the toast (the form above shows the values). */}
        <FormAnswer formId={RESTORE_FORM} answer={undefined} />
        <ol className="mt-4 grid gap-2" data-testid="revisions">
          {revisions.map((r) => (
            <li key={r.id} className={cardClass("sm", "flex flex-wrap items-center gap-3")} data-revision={r.id}>
              <span className="min-w-0 flex-1 basis-48 wrap-anywhere text-sm">
                {formatDateTime(r.revisedAt)} · {revisionWords(r)}
                {r.tagline ? ` · “${r.tagline}”` : ""}
              </span>
              <Form method="post" action={answerAction(here, RESTORE_FORM)} preventScrollReset>
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

/** The edit form and its live preview, as the stored venture stands (the page keys it by its version). */
function VentureEditor({
  venture,
  drawn,
  logoMaxBytes,
  lastResult,
}: {
  venture: SerializeFrom<typeof loader>["venture"];
  drawn: Venture;
  logoMaxBytes: number;
  lastResult: FormReply["result"] | undefined;
}) {
  const here = adminVenturePath(venture.id);
  const [form, fields] = useForm({
    id: "venture",
    lastResult,
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
  const logoError = logoErrors(lastResult);
  const problems = [
    ...fieldProblems(fields, FIELD_LABELS),
    ...(logoError ? [{ id: "venture-logo", label: "Logo", errors: [logoError] }] : []),
  ];
  // A logo chosen but not yet uploaded is previewed from the file itself (an object URL).
  const chosenLogo = useRef<{ file: File; url: string } | null>(null);
  useEffect(
    () => () => {
      if (chosenLogo.current) URL.revokeObjectURL(chosenLogo.current.url);
    },
    [],
  );
  const onInput = (event: React.FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    const get = (name: string) => String(data.get(name) ?? "");
    const stage = get("stage");
    const video = youtubeId(get("video"));
    const file = data.get("logo");
    const image = file instanceof File && file.size > 0 && /^image\/(png|jpeg|webp)$/.test(file.type) ? file : null;
    if (chosenLogo.current?.file !== image) {
      if (chosenLogo.current) URL.revokeObjectURL(chosenLogo.current.url);
      chosenLogo.current = image ? { file: image, url: URL.createObjectURL(image) } : null;
    }
    setPreview({
      ...drawn,
      ...(chosenLogo.current ? { logo: chosenLogo.current.url } : {}),
      name: get("name") || drawn.name,
      tagline: get("tagline"),
      description: get("description"),
      status: stage in STAGES ? (stage as Venture["status"]) : drawn.status,
      ...(video ? { youtubeVideoId: video } : { youtubeVideoId: undefined }),
    });
  };
  return (
    <>
      <Form
        method="post"
        action={answerAction(here, form.id)}
        encType="multipart/form-data"
        {...getFormProps(form)}
        noValidate
        onInput={onInput}
        className={cardClass("lg", "mt-6 space-y-4")}
      >
        <Field label="Name" field={fields.name}>
          <Input field={fields.name} maxLength={VENTURE_LIMITS.name} />
        </Field>
        <Field label={`Tagline (at most ${VENTURE_LIMITS.tagline} characters)`} field={fields.tagline}>
          <Input field={fields.tagline} />
        </Field>
        <Field label={`Description (at most ${VENTURE_LIMITS.description} characters)`} field={fields.description}>
          <Textarea field={fields.description} rows={4} />
        </Field>
        <Field label="Stage" field={fields.stage}>
          <FieldSelect field={fields.stage}>
            {STAGE_NAMES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </FieldSelect>
        </Field>
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
            aria-describedby={logoError ? "venture-logo-error" : undefined}
            className={FILE_INPUT}
          />
          {logoError ? (
            <p id="venture-logo-error" className="text-sm text-destructive">
              {logoError}
            </p>
          ) : null}
        </div>
        <FormAnswer formId={form.id} answer={lastResult} message={answerMessage(form, problems)} problems={problems} />
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
    </>
  );
}

/** The logo's errors in a reply (conform's `error.logo`). */
function logoErrors(result: unknown): string | null {
  const errors = (result as { error?: Record<string, string[] | null> } | undefined)?.error?.logo;
  return errors?.length ? errors.join(" ") : null;
}
