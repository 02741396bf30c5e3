import { getFormProps, useForm } from "@conform-to/react";
import type { FormReply } from "~/features/ventures/forms";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { StatusBadge } from "~/features/ventures/venture-card";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { venturesAction } from "~/features/ventures/admin.server";
import { allVentures, factsOf } from "~/features/ventures/catalogue.server";
import { KeyFactForm } from "~/features/ventures/key-fact-form";
import { adminVenturePath, newVentureSchema } from "~/features/ventures/forms";
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
      ventures: ventures.map(({ id, name, stage, shown }) => ({ id, name, stage, shown, path: adminVenturePath(id) })),
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
  const { ventures, facts } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const [form, fields] = useForm<{ id: string; name: string }>({
    id: "new-venture",
    lastResult: actionData?.form === "create" ? actionData.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newVentureSchema }),
  });
  const factResult = actionData?.form === "fact" ? actionData.result : undefined;
  return (
    <div className="mx-auto max-w-4xl px-4 pb-16 pt-10">
      <h1 className="text-3xl font-bold tracking-tight">{page.heading}</h1>
      <p className="mt-2 text-muted-foreground">{page.description}</p>
      <ol className="mt-8 grid gap-3" data-testid="venture-list">
        {ventures.map((v, i) => (
          <li key={v.id} className={cardClass("md", "flex flex-wrap items-center gap-3")} data-id={v.id}>
            <div className="min-w-0 flex-1 basis-48">
              <Link to={v.path} className="font-medium underline underline-offset-4">
                {v.name}
              </Link>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                <StatusBadge status={v.stage} />
                <span data-testid="shown">{v.shown ? "Shown" : "Hidden"}</span>
              </div>
            </div>
            <Form method="post" className="flex flex-wrap gap-2">
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
        {facts.length ? (
          <ul className="mt-4 grid gap-2">
            {facts.map((f) => (
              <li key={f.id} className={cardClass("sm", "flex flex-wrap items-center gap-3")}>
                <span className="min-w-0 flex-1 basis-48 wrap-anywhere">
                  <strong>{f.label}</strong>: {f.value} (as of {f.asOf}) · {f.source}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-fact" />
                  <input type="hidden" name="fact" value={f.id} />
                  <Button type="submit" variant="destructive">
                    Remove<span className="sr-only"> {f.label}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <KeyFactForm id="group-fact" lastResult={factResult} submitLabel="Add group fact" />
      </section>
      <section aria-labelledby="new-venture-heading" className="mt-10">
        <h2 id="new-venture-heading" className="text-xl font-semibold">
          Add a venture
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          It stays hidden until you show it. Its id is its address, /subsidiary/&lt;id&gt;, and cannot change.
        </p>
        <Form method="post" {...getFormProps(form)} noValidate className={cardClass("lg", "mt-4 space-y-4")}>
          <input type="hidden" name="intent" value="create" />
          <Field label="Id (lower-case letters, digits and hyphens)" field={fields.id}>
            <Input field={fields.id} maxLength={40} />
          </Field>
          <Field label="Name" field={fields.name}>
            <Input field={fields.name} maxLength={60} />
          </Field>
          <Button type="submit">Add venture</Button>
        </Form>
      </section>
    </div>
  );
}
