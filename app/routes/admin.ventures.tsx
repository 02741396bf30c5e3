import { getFormProps, useForm } from "@conform-to/react";
import type { FormReply } from "~/features/ventures/forms";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { StatusBadge } from "~/features/ventures/venture-card";
import { answerAction, answerMessage, fieldProblems, FormAnswer } from "~/components/form-answer";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { venturesAction } from "~/features/ventures/admin.server";
import { allVentures, factSourceLabels, factsOf } from "~/features/ventures/catalogue.server";
import { factToConfirm, KeyFactList } from "~/features/ventures/key-fact-list";
import { KeyFactForm } from "~/features/ventures/key-fact-form";
import { cannotShow } from "~/features/ventures/edit.server";
import { adminVenturePath, newVentureSchema, ventureAnchor } from "~/features/ventures/forms";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.venturesAdmin;
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const [ventures, facts] = await Promise.all([allVentures(db), factsOf(db, null)]);
  return json(
    {
      facts,
      sourceLabels: await factSourceLabels(db, facts),
      confirming: factToConfirm(request),
      ventures: ventures.map((v) => ({
        id: v.id,
        name: v.name,
        stage: v.stage,
        shown: v.shown,
        path: adminVenturePath(v.id),
        // Why it cannot be shown yet (an empty tagline or description), said beside its Show.
        unshowable: v.shown ? null : cannotShow(v),
      })),
    },
    { headers: NO_STORE },
  );
}

/** `POST /admin/ventures`: `intent` create (`id`, `name`), up, down, show or hide (`id`). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  return venturesAction(request, env, admin);
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function VenturesAdmin() {
  const { ventures, facts, sourceLabels, confirming } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const createResult = actionData?.form === "create" ? actionData.result : undefined;
  const [form, fields] = useForm<{ id: string; name: string }>({
    id: "new-venture",
    lastResult: createResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newVentureSchema }),
  });
  const problems = fieldProblems(fields, { id: "Id", name: "Name" });
  // Each form shows only its own reply: the page's forms share the action data.
  const factResult = actionData?.form === "fact" ? actionData.result : undefined;
  return (
    <div className="mx-auto max-w-4xl px-4 pb-16 pt-10">
      <h1 className="text-3xl font-bold tracking-tight">{page.heading}</h1>
      <p className="mt-2 text-muted-foreground">{page.description}</p>
      <ol className="mt-8 grid gap-3" data-testid="venture-list">
        {ventures.map((v, i) => (
          <li
            key={v.id}
            id={ventureAnchor(v.id)}
            className={cardClass("md", "flex scroll-mt-24 flex-wrap items-center gap-3")}
            data-id={v.id}
          >
            <div className="min-w-0 flex-1 basis-48">
              <Link to={v.path} className="font-medium underline underline-offset-4">
                {v.name}
              </Link>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                <StatusBadge status={v.stage} />
                <span data-testid="shown">{v.shown ? "Shown" : "Hidden"}</span>
              </div>
              {v.unshowable ? (
                <p className="mt-1 text-sm text-muted-foreground" data-testid="unshowable">
                  {v.unshowable}
                </p>
              ) : null}
            </div>
            <Form method="post" preventScrollReset className="flex flex-wrap gap-2">
              <input type="hidden" name="id" value={v.id} />
              <Button type="submit" name="intent" value="up" variant="outline" disabled={i === 0}>
                Move up<span className="sr-only"> {v.name}</span>
              </Button>
              <Button type="submit" name="intent" value="down" variant="outline" disabled={i === ventures.length - 1}>
                Move down<span className="sr-only"> {v.name}</span>
              </Button>
              <Button type="submit" name="intent" value={v.shown ? "hide" : "show"} variant="outline">
                {v.shown ? "Hide" : "Show"}
                <span className="sr-only"> {v.name}</span>
              </Button>
            </Form>
          </li>
        ))}
      </ol>
      <section aria-labelledby="group-facts-heading" className="mt-10">
        <h2 id="group-facts-heading" className="text-xl font-semibold">
          The group&apos;s key facts
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">Shown on /investors, each with its date and source.</p>
        <KeyFactList
          facts={facts}
          sourceLabels={sourceLabels}
          path={page.path}
          confirming={confirming}
          testId="group-facts"
        />
        <KeyFactForm id="group-fact" action={page.path} lastResult={factResult} submitLabel="Add group fact" />
      </section>
      <section aria-labelledby="new-venture-heading" className="mt-10">
        <h2 id="new-venture-heading" className="text-xl font-semibold">
          Add a venture
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          It stays hidden until you show it. Its id is its address, /subsidiary/&lt;id&gt;, and cannot change.
        </p>
        <Form
          method="post"
          action={answerAction(page.path, form.id)}
          {...getFormProps(form)}
          noValidate
          className={cardClass("lg", "mt-4 space-y-4")}
        >
          <input type="hidden" name="intent" value="create" />
          <Field label="Id (lower-case letters, digits and hyphens)" field={fields.id}>
            <Input field={fields.id} maxLength={40} />
          </Field>
          <Field label="Name" field={fields.name}>
            <Input field={fields.name} maxLength={60} />
          </Field>
          <FormAnswer
            formId={form.id}
            answer={createResult}
            message={answerMessage(form, problems)}
            problems={problems}
          />
          <Button type="submit">Add venture</Button>
        </Form>
      </section>
    </div>
  );
}
