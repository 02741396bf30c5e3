import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { Card, cardClass } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SITE } from "~/content/site";
import { formatBytes } from "~/features/documents/library";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { renderMarkdown } from "~/features/news/markdown.server";
import { acceptNda, needsNda, ownerName, recordPresence } from "~/features/rooms/access.server";
import { roomAccess } from "~/features/rooms/room-access.server";
import { ndaSchema } from "~/features/rooms/forms";
import { roomAdminPath, roomFilePath, roomPath } from "~/features/rooms/paths";
import { roomDocumentsOf } from "~/features/rooms/rooms.server";
import { ANALYTICS_TEXT } from "~/features/engagement/consent";
import { setAnalytics } from "~/features/engagement/consent.server";
import { recordPath, viewerPath } from "~/features/engagement/paths";
import { QuestionForm } from "~/features/engagement/question-forms";
import {
  askQuestion,
  faqOfRoom,
  questionSchema,
  questionsOfInvitation,
  roomHoldsDocument,
} from "~/features/engagement/questions.server";
import { LocalTime } from "~/components/ui/local-time";
import { getConfig } from "~/utils/config.server";
import { NO_STORE_NO_REFERRER } from "~/utils/no-store";
import { batch, getDb } from "~/utils/db.server";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** The room (docs/rooms.md): its NDA until accepted, then its documents. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  const db = getDb(env);
  const access = await roomAccess(request, env, db, params.id);
  const { room, investor } = access;
  const owner = await ownerName(db, room);
  if (await needsNda(db, access)) {
    return json(
      {
        step: "nda" as const,
        title: room.title,
        owner,
        name: investor.name,
        nda: renderMarkdown(room.nda),
        months: getConfig(env).readingRecordMonths,
      },
      { headers: NO_STORE_NO_REFERRER },
    );
  }
  const [documents, questions, faq] = await Promise.all([
    roomDocumentsOf(db, room.id),
    questionsOfInvitation(db, access.invitation.id),
    faqOfRoom(db, room.id),
    recordPresence(env, ctx, db, access, { opened: true }),
  ]);
  return json(
    {
      step: "room" as const,
      title: room.title,
      owner,
      email: investor.email,
      downloads: room.downloads,
      watermark: room.watermark,
      record: recordPath(room.id),
      // Their own questions with the answers, and the room's FAQ: no one's name, firm or address.
      questions,
      faq: faq.map((f) => ({ id: f.id, question: f.question, answer: f.answer ?? "" })),
      documents: documents.map((d) => ({
        id: d.id,
        title: d.title,
        description: d.description,
        size: d.size,
        href: roomFilePath(room.id, d.id),
        viewer: viewerPath(room.id, d.id),
        download: room.downloads ? roomFilePath(room.id, d.id, true) : null,
      })),
    },
    { headers: NO_STORE_NO_REFERRER },
  );
}

/**
 * `POST` `intent=accept`: the NDA accepted, with the typed name, and the consent to page times
 * (decision 116); `intent=ask`: a question to the room's owner, optionally about one of its
 * documents (decision 119), only once the NDA is accepted.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { env, ctx } = context.cloudflare;
  const db = getDb(env);
  const access = await roomAccess(request, env, db, params.id);
  const form = await readForm(request, { maxBytes: 32 * 1024 });
  const intent = form.get("intent");
  if (intent === "ask") return ask(env, ctx, db, access, form);
  if (intent !== "accept")
    throw new Response("Bad request: unknown intent.", { status: 400, headers: NO_STORE_NO_REFERRER });
  const submission = parseWithZod(form, { schema: ndaSchema });
  if (submission.status !== "success")
    return json({ intent, result: submission.reply() }, { status: 400, headers: NO_STORE_NO_REFERRER });
  if (await needsNda(db, access)) await acceptNda(db, access, submission.value.name);
  await batch(db, setAnalytics(db, access.invitation.id, form.get("analytics") === "on"));
  return redirect(roomPath(access.room.id), { status: 303, headers: NO_STORE_NO_REFERRER });
}

async function ask(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: ReturnType<typeof getDb>,
  access: Awaited<ReturnType<typeof roomAccess>>,
  form: FormData,
) {
  const { room, invitation, investor } = access;
  if (await needsNda(db, access))
    throw new Response("Accept the room's agreement first.", { status: 403, headers: NO_STORE_NO_REFERRER });
  const submission = parseWithZod(form, { schema: questionSchema });
  if (submission.status !== "success")
    return json({ intent: "ask" as const, result: submission.reply() }, { status: 400, headers: NO_STORE_NO_REFERRER });
  const { question, document: documentId } = submission.value;
  const held = documentId ? await roomHoldsDocument(db, room.id, documentId) : null;
  if (documentId && !held)
    return json(
      {
        intent: "ask" as const,
        result: submission.reply({ fieldErrors: { document: ["Please choose one of the room's documents."] } }),
      },
      { status: 400, headers: NO_STORE_NO_REFERRER },
    );
  await askQuestion(env, ctx, db, {
    room,
    invitationId: invitation.id,
    asker: { name: investor.name, firm: investor.firm, email: investor.email },
    question,
    document: held && documentId ? { id: documentId, title: held.title } : null,
    adminUrl: new URL(roomAdminPath(room.id), getConfig(env).siteUrl).href,
  });
  return redirect(`${roomPath(room.id)}?asked=1#room-questions-heading`, {
    status: 303,
    headers: NO_STORE_NO_REFERRER,
  });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.title ?? "Investor room"} | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

function NdaForm({ name, nda, months }: { name: string; nda: string; months: number }) {
  const actionData = useActionData<typeof action>();
  const { pathname } = useLocation();
  const [form, fields] = useForm({
    id: "room-nda-form",
    lastResult: actionData?.intent === "accept" ? actionData.result : undefined,
    defaultValue: { name },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ndaSchema }),
  });
  return (
    <>
      <section aria-labelledby="nda-heading" className="mt-8">
        <h2 id="nda-heading" className="text-xl font-semibold">
          Non-disclosure agreement
        </h2>
        <div className={cardClass("lg", "news-body mt-3 wrap-anywhere")} dangerouslySetInnerHTML={{ __html: nda }} />
      </section>
      <Form
        method="post"
        action={pathname}
        {...getFormProps(form)}
        noValidate
        className={cardClass("lg", "mt-6 space-y-4")}
      >
        <input type="hidden" name="intent" value="accept" />
        <div>
          <div className="flex items-start gap-2">
            <input
              {...getInputProps(fields.accept, { type: "checkbox" })}
              key={fields.accept.key}
              className="mt-1 size-4"
            />
            <label htmlFor={fields.accept.id} className="text-sm font-medium">
              I have read the agreement above and accept it.
            </label>
          </div>
          {fields.accept.errors?.length ? (
            <p id={fields.accept.errorId} className="mt-1 text-sm text-destructive">
              {fields.accept.errors.join(" ")}
            </p>
          ) : null}
        </div>
        <div>
          <div className="flex items-start gap-2">
            <input type="checkbox" id="room-analytics" name="analytics" className="mt-1 size-4" />
            <label htmlFor="room-analytics" className="text-sm font-medium">
              {ANALYTICS_TEXT.label}
            </label>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">{ANALYTICS_TEXT.kept(months)}</p>
        </div>
        <Field label="Your full name, as your signature" field={fields.name}>
          <Input field={fields.name} autoComplete="name" />
        </Field>
        <p className="text-sm text-muted-foreground">
          We keep the time of your acceptance, the name you typed and the text as you accepted it.
        </p>
        <Button type="submit">Accept and enter</Button>
      </Form>
    </>
  );
}

export default function Room() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10">
      <p className="text-sm font-medium text-muted-foreground">Investor room · {data.owner}</p>
      <h1 className="wrap-anywhere mt-1 text-3xl font-bold tracking-tight">{data.title}</h1>
      {data.step === "nda" ? (
        <>
          <p className="mt-3 text-muted-foreground">Before the documents, please read and accept the agreement.</p>
          <NdaForm name={data.name} nda={data.nda} months={data.months} />
        </>
      ) : (
        <>
          <p className="mt-3 text-muted-foreground" data-testid="room-copy-note">
            {data.watermark
              ? `Every copy you open here is marked on each page with your address (${data.email}) and the date.`
              : "The documents open in your browser."}{" "}
            {data.downloads
              ? "You may download them."
              : "They open in your browser only: this room offers no downloads."}
          </p>
          <section aria-labelledby="room-documents-heading" className="mt-8">
            <h2 id="room-documents-heading" className="text-xl font-semibold">
              Documents
            </h2>
            {data.documents.length === 0 ? (
              <p className="mt-3 text-muted-foreground">No documents are in this room yet.</p>
            ) : (
              <ul className="mt-4 space-y-3">
                {data.documents.map((d) => (
                  <li key={d.href}>
                    <Card padding="sm" className="min-w-0 space-y-1">
                      <a
                        href={d.href}
                        className="wrap-anywhere font-medium text-primary underline-offset-4 hover:underline"
                      >
                        {d.title}
                      </a>
                      {d.description ? (
                        <p className="wrap-anywhere text-sm text-muted-foreground">{d.description}</p>
                      ) : null}
                      <p className="text-sm text-muted-foreground">
                        PDF, {formatBytes(d.size)}
                        {" · "}
                        <a href={d.viewer} className="text-primary underline underline-offset-2">
                          Open in the viewer<span className="sr-only"> {d.title}</span>
                        </a>
                        {d.download ? (
                          <>
                            {" · "}
                            <a href={d.download} className="text-primary underline-offset-4 hover:underline">
                              Download<span className="sr-only"> {d.title}</span>
                            </a>
                          </>
                        ) : null}
                      </p>
                    </Card>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <Questions data={data} />
          <p className="mt-8 text-sm">
            <a href={data.record} className="text-primary underline underline-offset-2">
              What we recorded about you
            </a>{" "}
            <span className="text-muted-foreground">(and your choice on page times)</span>
          </p>
        </>
      )}
    </div>
  );
}

type RoomData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { step: "room" }>;

/** The room's FAQ, the investor's own questions with their answers, and the form to ask. */
function Questions({ data }: { data: RoomData }) {
  const actionData = useActionData<typeof action>();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  return (
    <>
      {data.faq.length ? (
        <section aria-labelledby="room-faq-heading" className="mt-10">
          <h2 id="room-faq-heading" className="text-xl font-semibold">
            Questions and answers
          </h2>
          <dl className="mt-4 space-y-4" data-testid="room-faq">
            {data.faq.map((f) => (
              <div key={f.id} className={cardClass("sm", "min-w-0 space-y-1")}>
                <dt className="wrap-anywhere whitespace-pre-wrap font-medium">{f.question}</dt>
                <dd className="wrap-anywhere whitespace-pre-wrap text-sm">{f.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <section aria-labelledby="room-questions-heading" className="mt-10">
        <h2 id="room-questions-heading" className="text-xl font-semibold">
          Ask a question
        </h2>
        {search.has("asked") ? (
          <p role="status" className="mt-2 text-sm">
            Your question was sent. The answer will come by e-mail and show here.
          </p>
        ) : null}
        {data.questions.length ? (
          <ul className="mt-4 space-y-3" data-testid="room-my-questions">
            {data.questions.map((q) => (
              <li key={q.id} className={cardClass("sm", "min-w-0 space-y-1")}>
                <p className="wrap-anywhere whitespace-pre-wrap font-medium">{q.question}</p>
                <p className="text-sm text-muted-foreground">
                  {q.document ? `About “${q.document}” · ` : ""}Asked <LocalTime ms={q.askedAt} />
                </p>
                {q.answer ? (
                  <p className="wrap-anywhere whitespace-pre-wrap text-sm">
                    <span className="font-medium">Answer: </span>
                    {q.answer}
                  </p>
                ) : (
                  <p className="text-sm text-muted-foreground">Not answered yet.</p>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-4">
          <QuestionForm
            action={pathname}
            documents={data.documents}
            lastResult={actionData?.intent === "ask" ? actionData.result : undefined}
          />
        </div>
      </section>
    </>
  );
}
