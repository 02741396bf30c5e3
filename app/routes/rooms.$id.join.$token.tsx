import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SITE } from "~/content/site";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { checkCode, invitationByToken, openRoom, requestCode } from "~/features/rooms/access.server";
import { addressSchema, codeSchema } from "~/features/rooms/forms";
import { joinPath, roomIdOf, roomPath } from "~/features/rooms/paths";
import { startRoomSession } from "~/features/rooms/session.server";
import { NO_STORE_NO_REFERRER } from "~/utils/no-store";
import { getDb } from "~/utils/db.server";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** The "we sent a code" line: the same whatever address was typed. */
export const SENT_TEXT =
  "If this address is invited to this room, we sent it an e-mail with a 6-digit code. It is valid for 10 minutes.";
const CODE_ERRORS = {
  wrong: "That code is not right. Check the e-mail and try again.",
  void: "This code no longer works (it expired, was tried too often, or a newer one was sent). Ask for a new code below.",
} as const;

/** An invitation's personal link: the address form, then the code form (docs/rooms.md). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = getDb(context.cloudflare.env);
  const room = await openRoom(db, roomIdOf(params.id));
  await invitationByToken(context.cloudflare.env, db, room, params.token);
  return json(
    { title: room.title, sent: new URL(request.url).searchParams.has("sent") },
    { headers: NO_STORE_NO_REFERRER },
  );
}

/** `POST` by `intent`: `address` asks for a code, `code` enters it. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { env, ctx } = context.cloudflare;
  const db = getDb(env);
  const room = await openRoom(db, roomIdOf(params.id));
  const access = await invitationByToken(context.cloudflare.env, db, room, params.token);
  const form = await readForm(request, { maxBytes: 4096 });
  const here = joinPath(room.id, params.token!);
  if (form.get("intent") === "address") {
    const submission = parseWithZod(form, { schema: addressSchema });
    if (submission.status !== "success")
      return json(
        { intent: "address" as const, result: submission.reply() },
        { status: 400, headers: NO_STORE_NO_REFERRER },
      );
    await requestCode(env, ctx, db, access, submission.value.email);
    return redirect(`${here}?sent`, { status: 303, headers: NO_STORE_NO_REFERRER });
  }
  if (form.get("intent") === "code") {
    const submission = parseWithZod(form, { schema: codeSchema });
    if (submission.status !== "success")
      return json(
        { intent: "code" as const, result: submission.reply() },
        { status: 400, headers: NO_STORE_NO_REFERRER },
      );
    const checked = await checkCode(env, db, access, submission.value.code);
    if (checked !== "ok")
      return json(
        { intent: "code" as const, result: submission.reply({ fieldErrors: { code: [CODE_ERRORS[checked]] } }) },
        { status: 400, headers: NO_STORE_NO_REFERRER },
      );
    const cookie = await startRoomSession(request, env, room.id, access.invitation.id);
    return redirect(roomPath(room.id), { status: 303, headers: { ...NO_STORE_NO_REFERRER, "Set-Cookie": cookie } });
  }
  throw new Response("Bad request: unknown intent.", { status: 400, headers: NO_STORE_NO_REFERRER });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction = () => [
  { title: `Investor room | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

function AddressForm({
  action,
  lastResult,
  again,
}: {
  action: string;
  lastResult?: SubmissionResult<string[]>;
  again: boolean;
}) {
  const [form, fields] = useForm({
    id: "room-address-form",
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addressSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("lg", "space-y-4")}>
      <input type="hidden" name="intent" value="address" />
      <Field label="Your e-mail address" field={fields.email}>
        <Input field={fields.email} type="email" autoComplete="email" />
      </Field>
      <Button type="submit" variant={again ? "outline" : "primary"}>
        {again ? "Send a new code" : "Send me a code"}
      </Button>
      {again ? (
        <p className="text-sm text-muted-foreground">A new code can be sent 30 seconds after the last.</p>
      ) : null}
    </Form>
  );
}

function CodeForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "room-code-form",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className={cardClass("lg", "space-y-4")}>
      <input type="hidden" name="intent" value="code" />
      <Field label="The 6-digit code from the e-mail" field={fields.code}>
        <input
          {...getInputProps(fields.code, { type: "text" })}
          key={fields.code.key}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          className="block h-10 w-full rounded-md border border-border bg-background px-3 text-sm aria-[invalid=true]:border-destructive"
        />
      </Field>
      <Button type="submit">Enter the room</Button>
    </Form>
  );
}

export default function RoomJoin() {
  const { title, sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { pathname } = useLocation();
  const codeStep = sent || actionData?.intent === "code";
  return (
    <div className="mx-auto max-w-xl px-4 pb-16 pt-10">
      <p className="text-sm font-medium text-muted-foreground">Investor room</p>
      <h1 className="wrap-anywhere mt-1 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-muted-foreground">
        This room is for invited investors. To come in, enter your e-mail address: we send a one-time code to it.
      </p>
      {codeStep ? (
        <>
          <p className="mt-6 rounded-md border border-border p-3 text-sm" role="status">
            {SENT_TEXT}
          </p>
          <div className="mt-4">
            <CodeForm action={pathname} lastResult={actionData?.intent === "code" ? actionData.result : undefined} />
          </div>
          <h2 className="mt-8 text-lg font-semibold">No code?</h2>
          <div className="mt-3">
            <AddressForm
              action={pathname}
              again
              lastResult={actionData?.intent === "address" ? actionData.result : undefined}
            />
          </div>
        </>
      ) : (
        <div className="mt-6">
          <AddressForm
            action={pathname}
            again={false}
            lastResult={actionData?.intent === "address" ? actionData.result : undefined}
          />
        </div>
      )}
    </div>
  );
}
