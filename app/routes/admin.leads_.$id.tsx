import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmStep, confirmIntent } from "~/components/confirm-step";
import { Button, buttonClass } from "~/components/ui/button";
import { SITE } from "~/content/site";
import type { Lead } from "~/db/schema";
import { requireAdmin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { addressTopics, adminDelete, adminUnsubscribe, getLead } from "~/features/leads/lead-actions.server";
import { choiceOf, describeChoice } from "~/features/alerts/preferences";
import { formatIsoDate } from "~/utils/format";
import { redirectWithToast } from "~/utils/flash.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";

const ACTIONS = {
  unsubscribe: {
    title: "Unsubscribe this lead?",
    body: "The address stays on record as unsubscribed and receives no more newsletter e-mails. A new signup by its owner is needed to come back.",
    button: "Unsubscribe",
  },
  delete: {
    title: "Delete this person's data?",
    body: "Everything stored about this address is erased: the lead and its consent record, contact messages, a member account and e-mails to it. Only a keyed hash is kept, so the address is never mailed or added again. This cannot be undone; the audit log keeps the lead's number and a masked address.",
    button: "Delete",
  },
} as const;
const INTENTS = ["unsubscribe", "delete"] as const;
const isIntent = (v: unknown): v is (typeof INTENTS)[number] => INTENTS.some((i) => i === v);

function leadId(params: { id?: string }) {
  return /^[1-9]\d{0,15}$/.test(params.id ?? "") ? Number(params.id) : null;
}

/** One lead, and the confirmation step of an action (`?confirm=unsubscribe|delete`). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const id = leadId(params);
  const lead = id === null ? null : await getLead(getDb(env), id);
  if (!lead) throw new Response("No such lead", { status: 404, headers: NO_STORE });
  const topics = await addressTopics(getDb(env), lead.email);
  return json({ lead, topics, confirm: confirmIntent(request, INTENTS) }, { headers: NO_STORE });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const form = await readForm(request, { maxBytes: 1024 });
  const intent = form.get("intent");
  if (!isIntent(intent)) return json({ message: "Unknown action" }, { status: 400, headers: NO_STORE });
  const id = leadId(params);
  const lead = id === null ? null : await getLead(getDb(env), id);
  if (!lead) return json({ message: "No such lead" }, { status: 404, headers: NO_STORE });
  if (intent === "unsubscribe") {
    const changed = await adminUnsubscribe(getDb(env), lead, admin.email);
    return redirectWithToast(env, request, `/admin/leads/${lead.id}`, {
      title: changed ? "Lead unsubscribed" : "Already unsubscribed",
      description: lead.email,
    });
  }
  await adminDelete(env, lead, admin.email);
  return redirectWithToast(env, request, "/admin/leads", {
    title: "Lead deleted",
    description: `Lead #${lead.id} was erased.`,
  });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = () => [
  { title: `Lead | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

/** A time as the loader sends it (a Date, as JSON: ISO 8601). */
const when = (iso: string | null) => (iso === null ? "—" : formatIsoDate(iso, "medium"));

type PageLead = SerializeFrom<typeof loader>["lead"];
type Row = readonly [label: string, text: (lead: PageLead) => string];

/**
 * Every column of a lead decided for its page, in the page's order: its row (label, text), or why
 * it has none. A new column of leads fails `npm run typecheck` here until it is decided.
 */
const ON_THE_PAGE = {
  id: "in the heading",
  email: ["E-mail", (lead) => lead.email],
  firstName: ["Name", (lead) => [lead.firstName, lead.lastName].filter(Boolean).join(" ") || "—"],
  lastName: "in Name, after the first name",
  status: ["Status", (lead) => lead.status],
  topic: ["Topic", (lead) => lead.topic],
  eventReminders: ["Event reminders", (lead) => (lead.eventReminders ? "yes" : "no")],
  source: ["Source", (lead) => lead.source],
  pagePath: ["Page", (lead) => lead.pagePath ?? "—"],
  consentMethod: [
    "Consent",
    (lead) => `${lead.consentMethod}${lead.consentVersion ? ` (wording ${lead.consentVersion})` : ""}`,
  ],
  consentVersion: "in Consent, after the method",
  subscribedAt: ["Subscribed", (lead) => when(lead.subscribedAt)],
  confirmedAt: ["Confirmed", (lead) => when(lead.confirmedAt)],
  unsubscribedAt: ["Unsubscribed", (lead) => when(lead.unsubscribedAt)],
  userAgent: "evidence of the consent: in the person export",
  referrer: "evidence of the consent: in the person export",
  clientTimestamp: "evidence of the consent: in the person export",
  suppressedAt: "a suppressed record is left out of the lists that lead here",
  handedOffAt: ["Handed off", (lead) => when(lead.handedOffAt)],
  alertVentures: ["Alerts for", (lead) => (lead.topic === "alerts" ? describeChoice(choiceOf(lead), (id) => id) : "—")],
  alertKinds: "in Alerts for, after the ventures",
} satisfies Record<keyof Lead, Row | string>;

const PAGE_ROWS: readonly Row[] = Object.values(ON_THE_PAGE).filter((row) => typeof row !== "string");

export default function LeadPage() {
  const { lead, topics, confirm } = useLoaderData<typeof loader>();
  // After its own topic, every topic of the address: each is a lead of its own, with its own
  // consent and way out.
  const rows = PAGE_ROWS.flatMap(([label, text]): (readonly [string, string])[] =>
    label === "Topic"
      ? [
          [label, text(lead)],
          ["All topics", topics.map((t) => `${t.topic}: ${t.status}`).join(", ")],
        ]
      : [[label, text(lead)]],
  );
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10">
      <Link to="/admin/leads" className="text-sm underline underline-offset-4">
        All leads
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Lead #{lead.id}</h1>
      <dl className="mt-6 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted-foreground">{k}</dt>
            <dd className="break-all" data-testid={`lead-${k.toLowerCase()}`}>
              {v}
            </dd>
          </div>
        ))}
      </dl>
      {confirm ? (
        <ConfirmStep {...ACTIONS[confirm]} intent={confirm} cancelTo="." />
      ) : (
        <div className="mt-8 flex flex-wrap gap-3">
          {lead.status !== "unsubscribed" ? (
            <Link to="?confirm=unsubscribe" className={buttonClass("outline")}>
              Unsubscribe
            </Link>
          ) : null}
          <Link to="?confirm=delete" className={buttonClass("outline")}>
            Delete
          </Link>
          {/* Everything stored about the address, as a JSON download (docs/decisions/019-personal-data.md). */}
          <form method="post" action="/admin/people/export">
            <input type="hidden" name="email" value={lead.email} />
            <Button type="submit" variant="outline">
              Export this person
            </Button>
          </form>
        </div>
      )}
    </div>
  );
}
