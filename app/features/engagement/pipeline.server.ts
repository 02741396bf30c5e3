/**
 * The investor pipeline in D1 (docs/decisions/118): one investor per address across every room,
 * a stage per investor and venture (the group's own rooms are the venture "group"). "Invited" and
 * "Opened" follow from the invitations; a stage an admin set (`investor_stages`) wins over them.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { investors, investorStages, roomInvitations, roomQuestions, rooms, roomViews, roomVisits } from "~/db/schema";
import { auditStatement } from "~/features/admin/audit.server";
import { allVentures } from "~/features/ventures/catalogue.server";
import { SITE } from "~/content/site";
import { batch, type Db } from "~/utils/db.server";
import {
  isPipelineStage,
  isSetStage,
  SET_STAGES,
  type PipelineEntry,
  type PipelineStage,
  type SetStage,
} from "./pipeline";

/** The venture filter's and the stage form's word for the group's own rooms. */
export const GROUP_VENTURE = "group";

/** `investor_stages.venture` of a venture id, or of the group's rooms (null). */
const stageKey = (venture: string | null) => venture ?? "";

export interface PipelineFilters {
  /** A venture id, GROUP_VENTURE, or null for every venture. */
  venture: string | null;
  stage: PipelineStage | null;
}

export interface VentureOption {
  id: string;
  name: string;
}

/** The ventures the filter and the form name: the group's rooms first, then the portfolio's order. */
export async function pipelineVentures(db: Db): Promise<VentureOption[]> {
  const rows = await allVentures(db);
  return [{ id: GROUP_VENTURE, name: SITE.name }, ...rows.map(({ id, name }) => ({ id, name }))];
}

export type FilterParse = { ok: true; filters: PipelineFilters } | { ok: false; message: string };

/** The URL's `?venture=&stage=` (empty means every one); an unknown value is refused, not guessed. */
export function parsePipelineFilters(params: URLSearchParams, ventures: readonly VentureOption[]): FilterParse {
  const venture = params.get("venture") ?? "";
  const stage = params.get("stage") ?? "";
  const errors: string[] = [];
  if (venture && !ventures.some((v) => v.id === venture)) errors.push("Please choose one of the ventures.");
  if (stage && !isPipelineStage(stage)) errors.push("Please choose one of the stages.");
  if (errors.length) return { ok: false, message: errors.join(" ") };
  return { ok: true, filters: { venture: venture || null, stage: isPipelineStage(stage) ? stage : null } };
}

/** The filters as the page's and the CSV's query string (without the `?`). */
export function pipelineQuery(filters: PipelineFilters): string {
  const params = new URLSearchParams();
  if (filters.venture) params.set("venture", filters.venture);
  if (filters.stage) params.set("stage", filters.stage);
  return params.toString();
}

/**
 * Every investor's standing with every venture whose rooms invited them, filtered: one entry per
 * investor and venture, the investors' most recent activity first, each one's ventures by name.
 */
export async function pipelineEntries(
  db: Db,
  filters: PipelineFilters,
  ventures: readonly VentureOption[],
): Promise<PipelineEntry[]> {
  const opened = sql<number>`(${roomInvitations.firstOpenedAt} IS NOT NULL
    OR EXISTS (SELECT 1 FROM ${roomVisits} WHERE ${roomVisits.invitationId} = ${roomInvitations.id})
    OR EXISTS (SELECT 1 FROM ${roomViews} WHERE ${roomViews.invitationId} = ${roomInvitations.id}))`;
  const lastActivity = sql<number>`max(${roomInvitations.invitedAt},
    coalesce(${roomInvitations.lastSeenAt}, 0),
    coalesce((SELECT max(${roomViews.at}) FROM ${roomViews} WHERE ${roomViews.invitationId} = ${roomInvitations.id}), 0),
    coalesce((SELECT max(${roomQuestions.askedAt}) FROM ${roomQuestions} WHERE ${roomQuestions.invitationId} = ${roomInvitations.id}), 0))`;
  const [invitations, stages] = await Promise.all([
    db
      .select({
        investorId: investors.id,
        email: investors.email,
        name: investors.name,
        firm: investors.firm,
        venture: rooms.venture,
        room: rooms.title,
        opened,
        lastActivity,
      })
      .from(roomInvitations)
      .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
      .innerJoin(rooms, eq(rooms.id, roomInvitations.roomId))
      .orderBy(rooms.title, rooms.id),
    db.select().from(investorStages),
  ]);
  const setStage = new Map(stages.map((s) => [`${s.investorId} ${s.venture}`, s.stage]));
  const ventureName = new Map(ventures.map((v) => [v.id, v.name]));
  const entries = new Map<string, PipelineEntry & { opened: boolean }>();
  for (const inv of invitations) {
    const key = `${inv.investorId} ${stageKey(inv.venture)}`;
    const entry = entries.get(key);
    if (entry) {
      if (!entry.rooms.includes(inv.room)) entry.rooms.push(inv.room);
      entry.opened ||= Boolean(inv.opened);
      entry.lastActivity = Math.max(entry.lastActivity, Number(inv.lastActivity));
      continue;
    }
    entries.set(key, {
      investorId: inv.investorId,
      email: inv.email,
      name: inv.name,
      firm: inv.firm,
      venture: inv.venture,
      ventureName: ventureName.get(inv.venture ?? GROUP_VENTURE) ?? inv.venture ?? SITE.name,
      stage: "Invited",
      rooms: [inv.room],
      opened: Boolean(inv.opened),
      lastActivity: Number(inv.lastActivity),
    });
  }
  const all: PipelineEntry[] = [...entries.entries()].map(([key, { opened: wasOpened, ...entry }]) => ({
    ...entry,
    stage: setStage.get(key) ?? (wasOpened ? "Opened" : "Invited"),
  }));
  // The investors' order: their most recent activity with any venture first.
  const latest = new Map<string, number>();
  for (const e of all) latest.set(e.investorId, Math.max(latest.get(e.investorId) ?? 0, e.lastActivity));
  return all
    .filter(
      (e) =>
        (!filters.venture || (e.venture ?? GROUP_VENTURE) === filters.venture) &&
        (!filters.stage || e.stage === filters.stage),
    )
    .sort(
      (a, b) =>
        latest.get(b.investorId)! - latest.get(a.investorId)! ||
        a.email.localeCompare(b.email) ||
        a.ventureName.localeCompare(b.ventureName),
    );
}

/** One investor of the page: their entries together, each venture with its stage. */
export interface PipelineInvestor {
  investorId: string;
  email: string;
  name: string;
  firm: string;
  rooms: string[];
  ventures: { id: string; name: string; stage: PipelineStage }[];
  lastActivity: number;
}

/** The entries (pipelineEntries' order) as the page lists them: each investor once, by address. */
export function investorsOf(entries: readonly PipelineEntry[]): PipelineInvestor[] {
  const byId = new Map<string, PipelineInvestor>();
  for (const e of entries) {
    let investor = byId.get(e.investorId);
    if (!investor) {
      investor = {
        investorId: e.investorId,
        email: e.email,
        name: e.name,
        firm: e.firm,
        rooms: [],
        ventures: [],
        lastActivity: 0,
      };
      byId.set(e.investorId, investor);
    }
    for (const room of e.rooms) if (!investor.rooms.includes(room)) investor.rooms.push(room);
    investor.ventures.push({ id: e.venture ?? GROUP_VENTURE, name: e.ventureName, stage: e.stage });
    investor.lastActivity = Math.max(investor.lastActivity, e.lastActivity);
  }
  return [...byId.values()];
}

export type StageForm =
  { ok: true; value: { investorId: string; venture: string; stage: SetStage } } | { ok: false; message: string };

/** The stage form's fields: `investor`, `venture` (an id or GROUP_VENTURE) and `stage`, each one required. */
export function parseStageForm(form: FormData): StageForm {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const [investorId, venture, stage] = [field("investor"), field("venture"), field("stage")];
  if (!isSetStage(stage)) return { ok: false, message: `Please choose a stage: ${SET_STAGES.join(", ")}.` };
  if (!investorId || investorId.length > 64) return { ok: false, message: "Bad request: expected an investor." };
  if (!venture || venture.length > 64) return { ok: false, message: "Bad request: expected a venture." };
  return { ok: true, value: { investorId, venture, stage } };
}

export type StageResult = "set" | "unknown";

/**
 * Sets an investor's stage with a venture (GROUP_VENTURE for the group's rooms) and audits it in
 * the same batch. "unknown" (nothing stored) when no room of that venture invited that investor.
 */
export async function setInvestorStage(
  db: Db,
  input: { investorId: string; venture: string; stage: SetStage },
  actor: string,
  now = Date.now(),
): Promise<StageResult> {
  if (!isSetStage(input.stage)) return "unknown";
  const venture = input.venture === GROUP_VENTURE ? null : input.venture;
  const [invited] = await db
    .select({ id: roomInvitations.id })
    .from(roomInvitations)
    .innerJoin(rooms, eq(rooms.id, roomInvitations.roomId))
    .where(
      and(
        eq(roomInvitations.investorId, input.investorId),
        venture === null ? isNull(rooms.venture) : eq(rooms.venture, venture),
      ),
    )
    .limit(1);
  if (!invited) return "unknown";
  await batch(db, [
    db
      .insert(investorStages)
      .values({
        investorId: input.investorId,
        venture: stageKey(venture),
        stage: input.stage,
        setBy: actor,
        setAt: now,
      })
      .onConflictDoUpdate({
        target: [investorStages.investorId, investorStages.venture],
        set: { stage: input.stage, setBy: actor, setAt: now },
      }),
    auditStatement(
      db,
      {
        actor,
        action: "investor.stage",
        target: `investor ${input.investorId}`,
        detail: `${venture ?? GROUP_VENTURE}: ${input.stage}`,
      },
      now,
    ),
  ]);
  return "set";
}

/** The audit entry of a CSV export (who, when, which filters), written before its rows leave. */
export async function auditPipelineExport(db: Db, actor: string, filters: PipelineFilters, rows: number) {
  await batch(db, [
    auditStatement(db, {
      actor,
      action: "investors.export",
      target: "investor pipeline",
      detail: [pipelineQuery(filters) || "every investor", `${rows} row(s)`].join(", "),
    }),
  ]);
}
