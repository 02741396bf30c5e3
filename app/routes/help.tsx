import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CalendarDays, ChevronDown, Mail, Phone } from "~/components/ui/icons.generated";
import { telHref, useContact } from "~/components/content/blocks";
import { PageHeader } from "~/components/page-header";
import { helpCopy as copy } from "~/content/copy";
import { pages } from "~/content/pages";
import { getUser } from "~/features/auth/users.server";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import { Input, Textarea } from "~/components/ui/input";
import { CONTACT_LIMITS, contactSchema } from "~/features/contact/contact-form";
import { HONEYPOT_FIELD, honeypotFilled } from "~/features/forms/honeypot";
import { saveContactMessage } from "~/features/contact/messages.server";
import { readForm } from "~/features/forms/body.server";
import { limitClient } from "~/features/forms/rate-limit.server";
import { pageMeta } from "~/utils/meta";
import { cardClass } from "~/components/ui/card";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.help;

/** `?subject=` pre-fills the form (Settings links here for account requests). */
export function loader({ request }: LoaderFunctionArgs) {
  const subject = new URL(request.url).searchParams.get("subject")?.slice(0, CONTACT_LIMITS.subject) ?? "";
  return { subject };
}

/**
 * The most a browser sends for a valid message: the form posts multipart (raw UTF-8, not
 * percent-escaped), so every field at its limit takes at most 3 bytes a character, plus room for
 * the parts' headers.
 */
const MAX_BODY = Object.values(CONTACT_LIMITS).reduce((sum, n) => sum + n, 0) * 3 + 2048;

export async function action({ request, context }: ActionFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  const formData = await readForm(request, { maxBytes: MAX_BODY });
  const submission = parseWithZod(formData, { schema: contactSchema });
  // Every post counts, valid or not (no free probing); past the limit the typed message is kept.
  const limit = await limitClient(request, env, "contact", (p) => ctx.waitUntil(p));
  if (!limit.allowed) {
    return json(
      { result: submission.reply({ formErrors: [limit.message] }), sent: false },
      { status: 429, headers: { "Retry-After": String(limit.retryAfter) } },
    );
  }
  if (submission.status !== "success") {
    return json({ result: submission.reply(), sent: false }, { status: 400 });
  }
  // A filled honeypot gets the same answer as a person and stores nothing.
  if (!honeypotFilled(formData.get(HONEYPOT_FIELD))) {
    const user = await getUser(request, env);
    // Stored with its notification to the contact address queued in the same batch (018).
    await saveContactMessage(
      env,
      ctx,
      { ...submission.value, userId: user?.id ?? null, userAgent: request.headers.get("user-agent") },
      Date.now(),
      limit.pacedUntil,
    );
  }
  return { result: submission.reply({ resetForm: true }), sent: true };
}

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Help() {
  const { email, phone } = useContact();
  return (
    <>
      <PageHeader heading={page.heading}>{copy.intro}</PageHeader>
      <div className="mx-auto grid max-w-6xl gap-4 px-4 sm:grid-cols-3">
        <a href={`mailto:${email}`} className={cardClass("lg", "hover:bg-accent")}>
          <Mail aria-hidden="true" className="size-6 text-primary" />
          <span className="mt-3 block font-semibold">Email</span>
          <span className="mt-1 block break-all text-sm text-muted-foreground">{email}</span>
        </a>
        <a href={telHref(phone)} className={cardClass("lg", "hover:bg-accent")}>
          <Phone aria-hidden="true" className="size-6 text-primary" />
          <span className="mt-3 block font-semibold">Phone</span>
          <span className="mt-1 block text-sm text-muted-foreground">{phone}</span>
        </a>
        <Link to={pages.consultancy.path} className={cardClass("lg", "hover:bg-accent")}>
          <CalendarDays aria-hidden="true" className="size-6 text-primary" />
          <span className="mt-3 block font-semibold">{copy.bookHeading}</span>
          <span className="mt-1 block text-sm text-muted-foreground">{copy.bookText}</span>
        </Link>
      </div>
      <section aria-labelledby="faq-heading" className="mx-auto max-w-3xl px-4 py-12">
        <h2 id="faq-heading" className="mb-6 text-2xl font-semibold">
          {copy.faqHeading}
        </h2>
        {/* Native exclusive <details> (same name): single and collapsible, readable without JS. */}
        <div className={cardClass("none", "divide-y divide-border")}>
          {copy.faq.map((item) => (
            <details key={item.question} name="faq" className="group px-6">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 font-medium [&::-webkit-details-marker]:hidden">
                {item.question}
                <ChevronDown
                  aria-hidden="true"
                  className="size-4 shrink-0 transition-transform group-open:rotate-180"
                />
              </summary>
              <p className="pb-4 text-muted-foreground">{item.answer}</p>
            </details>
          ))}
        </div>
      </section>
      <ContactForm />
    </>
  );
}

function ContactForm() {
  const { subject } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction?.startsWith(page.path);
  const [form, fields] = useForm({
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    defaultValue: { subject },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  });
  return (
    <section id="contact" aria-labelledby="contact-heading" className="mx-auto max-w-3xl scroll-mt-20 px-4 pb-16">
      <h2 id="contact-heading" className="mb-6 text-2xl font-semibold">
        {copy.formHeading}
      </h2>
      {actionData?.sent ? (
        <p role="status" className="mb-6 rounded-lg border border-border bg-accent p-4 text-sm font-medium">
          {copy.success}
        </p>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        action={`${page.path}#contact`}
        {...getFormProps(form)}
        noValidate
        className={cardClass("lg", "space-y-4")}
      >
        {form.errors ? (
          <p
            id={form.errorId}
            role="alert"
            className="rounded-md border border-destructive p-3 text-sm text-destructive"
          >
            {form.errors[0]}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" field={fields.name}>
            <Input field={fields.name} autoComplete="name" maxLength={CONTACT_LIMITS.name} />
          </Field>
          <Field label="Email" field={fields.email}>
            <Input field={fields.email} type="email" autoComplete="email" />
          </Field>
        </div>
        <Field label="Subject" field={fields.subject}>
          <Input field={fields.subject} maxLength={CONTACT_LIMITS.subject} />
        </Field>
        <Field label="Message" field={fields.message}>
          <Textarea field={fields.message} rows={6} maxLength={CONTACT_LIMITS.message} />
        </Field>
        <Honeypot id="contact-website" />
        <Button type="submit" disabled={sending}>
          {sending ? "Sending..." : "Send Message"}
        </Button>
      </Form>
    </section>
  );
}
