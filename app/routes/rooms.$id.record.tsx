import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { LocalTime } from "~/components/ui/local-time";
import { investorAccess } from "~/features/engagement/access.server";
import { recordPath } from "~/features/engagement/paths";
import { NO_STORE } from "~/utils/no-store";
import { ANALYTICS_TEXT } from "~/features/engagement/consent";
import { preferencesOf, setAnalytics, setUpdates } from "~/features/engagement/consent.server";
import { eraseReadingRecord } from "~/features/engagement/readings.server";
import { recordOf } from "~/features/engagement/record.server";
import { formatSeconds } from "~/features/engagement/reading-stats";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { roomPath } from "~/features/rooms/paths";
import { getConfig } from "~/utils/config.server";
import { batch, getDb } from "~/utils/db.server";

/**
 * GET /rooms/<id>/record: "What we recorded about you" (docs/decisions/117), the investor's own
 * record in this room; `?format=json` is the same as a file (their data-rights export). POST
 * `intent=erase` deletes their page times, opens and downloads; `intent=analytics` with or without
 * the `analytics` box changes their consent; `intent=updates` with or without the `updates` box
 * their "Updated:" e-mails (docs/decisions/119).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env);
  const access = await investorAccess(request, env, db, params.id, { nda: false });
  const [record, preferences] = await Promise.all([
    recordOf(db, access.invitation.id),
    preferencesOf(db, access.invitation.id),
  ]);
  const data = {
    room: { id: access.room.id, title: access.room.title },
    investor: { email: access.investor.email, name: access.investor.name, firm: access.investor.firm },
    invitedAt: access.invitation.invitedAt,
    firstOpenedAt: access.invitation.firstOpenedAt,
    analytics: preferences.analytics,
    updates: preferences.updates,
    months: getConfig(env).readingRecordMonths,
    ...record,
  };
  if (new URL(request.url).searchParams.get("format") === "json")
    // Thrown: a file, not the page's data.
    throw new Response(
      JSON.stringify({ format: "afx-room-record/1", exportedAt: new Date().toISOString(), ...data }, null, 2),
      {
        headers: {
          ...NO_STORE,
          "Content-Type": "application/json; charset=utf-8",
          "Content-Disposition": `attachment; filename="afx-room-record-${new Date().toISOString().slice(0, 10)}.json"`,
        },
      },
    );
  return json(data, { headers: NO_STORE });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { env } = context.cloudflare;
  const db = getDb(env);
  const access = await investorAccess(request, env, db, params.id, { nda: false });
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "erase") await batch(db, eraseReadingRecord(db, access.invitation.id));
  else if (intent === "analytics")
    await batch(db, setAnalytics(db, access.invitation.id, form.get("analytics") === "on"));
  else if (intent === "updates") await batch(db, [setUpdates(db, access.invitation.id, form.get("updates") === "on")]);
  else return json({ message: "Choose what to change." }, { status: 400, headers: NO_STORE });
  return redirect(`${recordPath(access.room.id)}?done=${intent}`, { status: 303, headers: NO_STORE });
}

export const headers = () => NO_STORE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `What we recorded about you | ${data.room.title}` : "Room" },
  { name: "robots", content: "noindex" },
];

export default function RoomRecord() {
  const d = useLoaderData<typeof loader>();
  const path = recordPath(d.room.id);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 pb-16 pt-10">
      <p className="text-sm">
        <Link to={roomPath(d.room.id)} className="link">
          Back to the room
        </Link>
      </p>
      <header>
        <h1 className="text-3xl font-bold tracking-tight">What we recorded about you</h1>
        <p className="wrap-anywhere mt-2 text-muted-foreground">
          In the room “{d.room.title}”, for {d.investor.name}
          {d.investor.firm ? `, ${d.investor.firm}` : ""} ({d.investor.email}). Invited <LocalTime ms={d.invitedAt} />
          {d.firstOpenedAt !== null ? (
            <>
              , first opened <LocalTime ms={d.firstOpenedAt} />
            </>
          ) : null}
          .
        </p>
      </header>

      <Card padding="sm" className="space-y-2">
        <h2 className="text-xl font-semibold">Page times</h2>
        <Form method="post" action={path} className="space-y-2" reloadDocument>
          <input type="hidden" name="intent" value="analytics" />
          <label className="flex items-start gap-2">
            <input type="checkbox" name="analytics" defaultChecked={d.analytics} className="mt-1 size-5" />
            <span>{ANALYTICS_TEXT.label}</span>
          </label>
          <p className="text-sm text-muted-foreground">{ANALYTICS_TEXT.kept(d.months)}</p>
          <Button type="submit" variant="outline">
            Save my choice
          </Button>
        </Form>
        {d.consents.length ? (
          <ul className="list-disc pl-5 text-sm">
            {d.consents.map((c) => (
              <li key={c.at}>
                {c.analytics ? "Consent given" : "Consent withdrawn"} <LocalTime ms={c.at} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm">You have not given your consent to page times.</p>
        )}
        {d.pageTimes.length ? (
          <table className="w-full text-sm" data-testid="record-page-times">
            <caption className="sr-only">Seconds recorded per page</caption>
            <thead>
              <tr>
                <th scope="col" className="text-left">
                  Document
                </th>
                <th scope="col" className="text-left">
                  Page
                </th>
                <th scope="col" className="text-right">
                  Time
                </th>
              </tr>
            </thead>
            <tbody>
              {d.pageTimes.map((p) => (
                <tr key={`${p.versionId}-${p.page}`}>
                  <td className="wrap-anywhere">{p.document}</td>
                  <th scope="row" className="text-left font-normal">
                    Page {p.page}
                  </th>
                  <td className="text-right tabular-nums">{formatSeconds(p.ms / 1000)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm">No page times are recorded.</p>
        )}
      </Card>

      <Card padding="sm" className="space-y-2">
        <h2 className="text-xl font-semibold">Update e-mails</h2>
        <Form method="post" action={path} className="space-y-2" reloadDocument>
          <input type="hidden" name="intent" value="updates" />
          <label className="flex items-start gap-2">
            <input type="checkbox" name="updates" defaultChecked={d.updates} className="mt-1 size-5" />
            <span>E-mail me when a document I read in this room gets a new version</span>
          </label>
          <Button type="submit" variant="outline">
            Save my choice
          </Button>
        </Form>
      </Card>

      <Card padding="sm" className="space-y-2">
        <h2 className="text-xl font-semibold">Opens and downloads</h2>
        {d.views.length ? (
          <ul className="list-disc pl-5 text-sm" data-testid="record-views">
            {d.views.map((v, i) => (
              <li key={i} className="wrap-anywhere">
                {v.kind === "open" ? "Opened" : "Downloaded"} “{v.document}” ({v.version}) <LocalTime ms={v.at} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm">No opens or downloads are recorded.</p>
        )}
      </Card>

      <Card padding="sm" className="space-y-2">
        <h2 className="text-xl font-semibold">The NDA</h2>
        {d.ndas.length ? (
          <ul className="list-disc pl-5 text-sm">
            {d.ndas.map((n) => (
              <li key={n.acceptedAt} className="wrap-anywhere">
                Accepted as “{n.name}” <LocalTime ms={n.acceptedAt} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm">No NDA accepted in this room.</p>
        )}
      </Card>

      {d.questions.length ? (
        <Card padding="sm" className="space-y-2">
          <h2 className="text-xl font-semibold">Your questions</h2>
          <ul className="list-disc pl-5 text-sm">
            {d.questions.map((q) => (
              <li key={q.id} className="wrap-anywhere">
                <span className="whitespace-pre-wrap">{q.question}</span>
                {q.document ? ` (about “${q.document}”)` : ""} · asked <LocalTime ms={q.askedAt} />
                {q.answer && q.answeredAt !== null ? (
                  <>
                    {" "}
                    · answered <LocalTime ms={q.answeredAt} />: <span className="whitespace-pre-wrap">{q.answer}</span>
                  </>
                ) : (
                  " · not answered yet"
                )}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card padding="sm" className="space-y-2">
        <h2 className="text-xl font-semibold">Erase my reading record</h2>
        <p className="text-sm">
          This deletes your page times and the record of each open and download in this room. Your invitation (with when
          you first opened the room), your NDA acceptance and your consent choices stay: they are the room&rsquo;s
          agreement with you. We keep reading records {d.months} months at most.
        </p>
        <Form method="post" action={path} reloadDocument>
          <input type="hidden" name="intent" value="erase" />
          <Button type="submit" variant="destructive">
            Erase my reading record
          </Button>
        </Form>
        <p className="text-sm">
          <a href={`${path}?format=json`} className="link">
            Download this record (JSON)
          </a>
        </p>
      </Card>
    </div>
  );
}
