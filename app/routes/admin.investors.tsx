import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminList, AdminSection } from "~/components/admin/admin-list";
import { AdminPage } from "~/components/admin/admin-page";
import { buttonClass } from "~/components/ui/button";
import { LocalTime } from "~/components/ui/local-time";
import { Select } from "~/components/ui/select";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { PIPELINE_STAGES, SET_STAGES, isSetStage } from "~/features/engagement/pipeline";
import {
  investorsOf,
  parsePipelineFilters,
  parseStageForm,
  pipelineEntries,
  pipelineQuery,
  pipelineVentures,
  setInvestorStage,
  type PipelineInvestor,
} from "~/features/engagement/pipeline.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { getDb } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/flash.server";
import { pageMeta } from "~/utils/meta";
import { NO_STORE } from "~/utils/no-store";
export { headers } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.investorsAdmin;
const CSV_PATH = "/admin/investors.csv";

/**
 * Every investor once, with a stage per venture, filtered by `?venture=&stage=` (docs/decisions/118).
 * Unknown filters: a 400 that says why, and an empty list (nothing guessed).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const db = getDb(env);
  const url = new URL(request.url);
  const ventures = await pipelineVentures(db);
  const parsed = parsePipelineFilters(url.searchParams, ventures);
  const values = { venture: url.searchParams.get("venture") ?? "", stage: url.searchParams.get("stage") ?? "" };
  if (!parsed.ok)
    return json(
      { investors: [] as PipelineInvestor[], ventures, values, query: "", filtered: true, filterError: parsed.message },
      { status: 400, headers: NO_STORE },
    );
  const entries = await pipelineEntries(db, parsed.filters, ventures);
  const query = pipelineQuery(parsed.filters);
  return json(
    { investors: investorsOf(entries), ventures, values, query, filtered: query !== "", filterError: null },
    { headers: NO_STORE },
  );
}

/**
 * `POST /admin/investors` (`investor`, `venture`, `stage`): sets a stage, audited; back to the
 * page with its filters. A bad stage, or an investor no room of that venture invited: a 400 that
 * says so, nothing stored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const admin = await requireAdmin(request, context.cloudflare.env);
  const { env } = context.cloudflare;
  const db = getDb(env);
  const form = await readForm(request, { maxBytes: 4096 });
  const parsed = parseStageForm(form);
  if (!parsed.ok) return json({ error: parsed.message }, { status: 400, headers: NO_STORE });
  if ((await setInvestorStage(db, parsed.value, admin.email)) === "unknown")
    return json(
      { error: "No room of that venture invited this investor: nothing was changed." },
      { status: 400, headers: NO_STORE },
    );
  const { search } = new URL(request.url);
  return redirectWithToast(
    env,
    request,
    `${page.path}${search}`,
    { title: "Stage set", description: parsed.value.stage },
    { status: 303, headers: NO_STORE },
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta({ page, matches }),
  { name: "robots", content: "noindex" },
];

export default function InvestorsAdmin() {
  const { investors, ventures, values, query, filtered, filterError } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const here = query ? `${page.path}?${query}` : page.path;
  const field = "grid content-start gap-1 text-sm";
  return (
    <AdminPage page={page}>
      <AdminSection id="pipeline-filter-heading" title="Filter" headingGap="filter" first>
        <form method="get" action={page.path} className="grid gap-3 sm:grid-cols-3" aria-label="Filter investors">
          <label className={field}>
            <span>Venture</span>
            <Select name="venture" defaultValue={values.venture} wide>
              <option value="">Every venture</option>
              {ventures.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </Select>
          </label>
          <label className={field}>
            <span>Stage</span>
            <Select name="stage" defaultValue={values.stage} wide>
              <option value="">Every stage</option>
              {PIPELINE_STAGES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          </label>
          <div className="flex flex-wrap items-end gap-3">
            <button type="submit" className="btn btn-primary">
              Apply filters
            </button>
            {filtered ? (
              <Link to={page.path} className={buttonClass("outline")}>
                Clear
              </Link>
            ) : null}
          </div>
        </form>
        {filterError ? (
          <p className="mt-3 text-sm text-destructive" role="alert">
            {filterError}
          </p>
        ) : null}
      </AdminSection>

      <AdminList
        id="pipeline-list-heading"
        title="Investors"
        aside={
          filterError ? null : (
            <a href={query ? `${CSV_PATH}?${query}` : CSV_PATH} className={buttonClass("outline")} download>
              Export CSV
            </a>
          )
        }
        intro={
          actionData?.error ? (
            <p className="mt-3 text-sm text-destructive" role="alert">
              {actionData.error}
            </p>
          ) : null
        }
        items={investors}
        itemKey={(inv) => inv.investorId}
        empty={filtered ? "No investor matches these filters." : "No investor has been invited to a room yet."}
        cardClassName="min-w-0 space-y-2"
        cardTestId="pipeline-investor"
      >
        {(inv) => (
          <>
            <h3 className="wrap-anywhere font-medium">
              {inv.name}
              {inv.firm ? `, ${inv.firm}` : ""} <span className="text-muted-foreground">({inv.email})</span>
            </h3>
            <p className="wrap-anywhere text-sm text-muted-foreground">
              Rooms: {inv.rooms.join(", ")} · Ventures: {inv.ventures.map((v) => v.name).join(", ")} · last activity{" "}
              <LocalTime ms={inv.lastActivity} />
            </p>
            <ul className="space-y-2">
              {inv.ventures.map((v) => (
                <li key={v.id} className="flex min-w-0 flex-wrap items-end gap-3">
                  <p className="wrap-anywhere min-w-0 text-sm">
                    {v.name}: <strong data-testid="investor-stage">{v.stage}</strong>
                  </p>
                  <Form method="post" action={here} className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="investor" value={inv.investorId} />
                    <input type="hidden" name="venture" value={v.id} />
                    <div className={field}>
                      {/* Named by aria-label: a wrapping label would add the options' words to its name. */}
                      <Select
                        name="stage"
                        aria-label={`Stage of ${inv.name} with ${v.name}`}
                        defaultValue={isSetStage(v.stage) ? v.stage : SET_STAGES[0]}
                      >
                        {SET_STAGES.map((s) => (
                          <option key={s} value={s}>
                            {s}
                          </option>
                        ))}
                      </Select>
                    </div>
                    <button
                      type="submit"
                      className="btn btn-outline"
                      aria-label={`Set stage of ${inv.name} with ${v.name}`}
                    >
                      Set stage
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          </>
        )}
      </AdminList>
    </AdminPage>
  );
}
