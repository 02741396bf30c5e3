import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PageHeader } from "~/components/page-header";
import { Button, buttonClass } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { settingsCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { endSession } from "~/features/auth/session.server";
import { getUser } from "~/features/auth/users.server";
import { readForm } from "~/features/forms/body.server";
import { limitClient } from "~/features/forms/rate-limit.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { ACCOUNT_PATHS, DELETE_MISMATCH, deleteAccountSchema } from "~/features/privacy/account-forms";
import { eraseMember } from "~/features/privacy/erase.server";
import { redirectWithToast } from "~/utils/flash.server";
import { normaliseEmail } from "~/utils/mail-address";
import { pageMeta } from "~/utils/meta";
import { cardClass } from "~/components/ui/card";
import { BARE_NO_STORE, NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const PATH = ACCOUNT_PATHS.deleteAccount;
const signInFirst = () =>
  redirect(`/api/login?returnTo=${encodeURIComponent(PATH)}`, { headers: { "Cache-Control": BARE_NO_STORE } });

/** The confirmation step of "Delete Account": a page of its own, so it works without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context.cloudflare.env);
  if (!user) return signInFirst();
  return json({ email: user.email, addressCovered: Boolean(user.email && user.emailVerified) }, { headers: NO_STORE });
}

/**
 * `POST /settings/delete` with `email`: when it is the account's address (case-insensitive), the
 * member's data is erased (docs/decisions/019-personal-data.md), every session of theirs ends and
 * they land on `/` with a toast. Anything else: 400 and nothing is erased.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  requireSameOrigin(request);
  const user = await getUser(request, env);
  if (!user)
    throw new Response("Sign in to delete your account.", { status: 401, headers: { "Cache-Control": BARE_NO_STORE } });
  const formData = await readForm(request, { maxBytes: 2048 });
  const submission = parseWithZod(formData, { schema: deleteAccountSchema });
  const limit = await limitClient(request, env, { account: user.id }, (p) => ctx.waitUntil(p));
  if (!limit.allowed) {
    return json(
      { result: submission.reply({ formErrors: [limit.message] }) },
      { status: 429, headers: { "Retry-After": String(limit.retryAfter) } },
    );
  }
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const typed = normaliseEmail(submission.value.email);
  if (!user.email || typed !== normaliseEmail(user.email)) {
    return json({ result: submission.reply({ fieldErrors: { email: [DELETE_MISMATCH] } }) }, { status: 400 });
  }
  // The sessions end first (and the cookie with them), then the data; the erasure deletes any left.
  const cookie = await endSession(request, env, { everywhere: true });
  await eraseMember(env, user);
  return redirectWithToast(
    env,
    request,
    "/",
    {
      title: "Account deleted",
      description: "Your account and your data have been deleted, and every session has ended.",
    },
    { headers: { "Set-Cookie": cookie, "Cache-Control": BARE_NO_STORE } },
  );
}

export const meta: MetaFunction = ({ matches }) => [
  ...pageMeta({
    page: { title: "Delete Account", description: "Delete your AFX Holding Group account and your data.", path: PATH },
    matches,
  }),
  { name: "robots", content: "noindex" },
];

export default function DeleteAccount() {
  const { email, addressCovered } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting";
  const [form, fields] = useForm({
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deleteAccountSchema }),
  });
  return (
    <>
      <PageHeader heading="Delete Account">{copy.deleteAccountHelp}</PageHeader>
      <div className="mx-auto max-w-2xl space-y-6 px-4 pb-16">
        <section aria-labelledby="delete-what" className="rounded-xl border border-destructive/50 bg-card p-6">
          <h2 id="delete-what" className="font-semibold">
            What is deleted
          </h2>
          <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>Your member account and every session of it, on every device.</li>
            <li>Messages you sent us from the Help page.</li>
            {addressCovered ? (
              <>
                <li>Your newsletter subscription and its consent record, and the e-mails we sent you.</li>
                <li>
                  We keep only a coded fingerprint of your address, which cannot be read back, so that it is never
                  mailed or added to a list again.
                </li>
              </>
            ) : (
              <li>
                Your sign-in provider has not verified your e-mail address, so records filed under it are kept; contact
                us to delete them.
              </li>
            )}
          </ul>
          <p className="mt-3 text-sm">
            This cannot be undone.{" "}
            <Link to={pages.settings.path} className="text-primary underline underline-offset-4">
              Download your data
            </Link>{" "}
            first if you want a copy.
          </p>
        </section>
        {email ? (
          <Form method="post" action={PATH} {...getFormProps(form)} noValidate className={cardClass("lg", "space-y-4")}>
            {form.errors ? (
              <p
                id={form.errorId}
                role="alert"
                className="rounded-md border border-destructive p-3 text-sm text-destructive"
              >
                {form.errors[0]}
              </p>
            ) : null}
            <Field label={`Type your e-mail address (${email}) to confirm`} field={fields.email}>
              <Input field={fields.email} type="email" autoComplete="off" spellCheck={false} />
            </Field>
            <div className="flex flex-wrap justify-end gap-3">
              <Link to={pages.settings.path} className={buttonClass("outline")}>
                Cancel
              </Link>
              <Button type="submit" variant="destructive" disabled={deleting}>
                {deleting ? "Deleting..." : "Delete my account"}
              </Button>
            </div>
          </Form>
        ) : (
          <p className="text-sm">
            Your account has no e-mail address to confirm with:{" "}
            <Link
              to={`${pages.help.path}?subject=${encodeURIComponent("Delete my account")}#contact`}
              className="text-primary underline underline-offset-4"
            >
              ask us
            </Link>{" "}
            to delete it.
          </p>
        )}
      </div>
    </>
  );
}
