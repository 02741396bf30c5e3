/**
 * The admin's changes to the catalogue (docs/ventures.md). Each is one batch: the change, its
 * revision (the venture as the change left it), its audit entry and `contentChanged`, so every
 * cached page follows at once (docs/decisions/090).
 */
import { and, asc, eq, isNull, max } from "drizzle-orm";
import { keyFacts, ventureRevisions, ventures, type VentureRow } from "~/db/schema";
import { auditIfChanged, auditStatement } from "~/features/admin/audit.server";
import { contentChanged } from "~/features/content/generation.server";
import { batch, type Db, type Statement } from "~/utils/db.server";
import type { FactInput, VentureInput } from "./forms";
import { changedFields, revisionState, type RevisionState } from "./revisions";

const target = (id: string) => `venture ${id}`;

/** The statements that set a venture to `next`, with its revision and audit entry; null: nothing changed. */
function changeStatements(
  db: Db,
  current: VentureRow,
  next: RevisionState,
  actor: string,
  action: string,
  now: number,
): { statements: Statement[]; changed: string[] } | null {
  const changed = changedFields(revisionState(current), next);
  if (!changed.length) return null;
  return {
    changed,
    statements: [
      db
        .update(ventures)
        .set({ ...next, updatedAt: now })
        .where(eq(ventures.id, current.id)),
      db.insert(ventureRevisions).values({
        ventureId: current.id,
        revisedBy: actor,
        revisedAt: now,
        changed: changed.join(","),
        state: JSON.stringify(next),
      }),
      auditStatement(db, { actor, action, target: target(current.id), detail: changed.join(", ") }, now),
      contentChanged(db),
    ],
  };
}

export interface StoredLogo {
  key: string;
  width: number | null;
  height: number | null;
}

/** Saves the edit form (and a new logo, already in R2); the fields it changed (empty: none). */
export async function saveVenture(
  db: Db,
  current: VentureRow,
  input: VentureInput,
  logo: StoredLogo | null,
  actor: string,
  now = Date.now(),
): Promise<string[]> {
  const next: RevisionState = {
    ...revisionState(current),
    ...input,
    ...(logo ? { logo: logo.key, logoWidth: logo.width, logoHeight: logo.height } : {}),
  };
  const change = changeStatements(db, current, next, actor, "venture.edit", now);
  if (!change) return [];
  await batch(db, change.statements as [Statement, ...Statement[]]);
  return change.changed;
}

/** Shows or hides a venture. */
export async function setShown(db: Db, current: VentureRow, shown: boolean, actor: string, now = Date.now()) {
  const change = changeStatements(
    db,
    current,
    { ...revisionState(current), shown },
    actor,
    shown ? "venture.show" : "venture.hide",
    now,
  );
  if (change) await batch(db, change.statements as [Statement, ...Statement[]]);
}

/** Brings a venture back as a revision left it (itself a new revision); false: no such revision. */
export async function restoreRevision(
  db: Db,
  current: VentureRow,
  revisionId: number,
  actor: string,
  now = Date.now(),
) {
  const revision = await db
    .select()
    .from(ventureRevisions)
    .where(and(eq(ventureRevisions.id, revisionId), eq(ventureRevisions.ventureId, current.id)))
    .get();
  if (!revision) return false;
  const state = revisionState({ ...revisionState(current), ...(JSON.parse(revision.state) as Partial<RevisionState>) });
  const change = changeStatements(db, current, state, actor, `venture.restore #${revisionId}`, now);
  if (change) await batch(db, change.statements as [Statement, ...Statement[]]);
  return true;
}

/** Adds a new venture, hidden until an admin shows it, last in the order; false when the id is taken. */
export async function createVenture(db: Db, id: string, name: string, actor: string, now = Date.now()) {
  const taken = await db.select({ id: ventures.id }).from(ventures).where(eq(ventures.id, id)).get();
  if (taken) return false;
  const last = await db
    .select({ position: max(ventures.position) })
    .from(ventures)
    .get();
  const row = {
    name,
    tagline: "",
    description: "",
    stage: "ideation" as const,
    colour: "blue",
    icon: "Users",
    logo: null,
    logoWidth: null,
    logoHeight: null,
    website: null,
    video: null,
    shown: false,
  };
  await batch(db, [
    db.insert(ventures).values({ id, ...row, position: (last?.position ?? -1) + 1, updatedAt: now }),
    db.insert(ventureRevisions).values({
      ventureId: id,
      revisedBy: actor,
      revisedAt: now,
      changed: "created",
      state: JSON.stringify(revisionState(row)),
    }),
    auditStatement(db, { actor, action: "venture.create", target: target(id) }, now),
    contentChanged(db),
  ]);
  return true;
}

/** Moves a venture one place up (-1) or down (+1) in the portfolio's order. */
export async function moveVenture(db: Db, id: string, by: -1 | 1, actor: string, now = Date.now()) {
  const list = await db
    .select({ id: ventures.id, position: ventures.position })
    .from(ventures)
    .orderBy(asc(ventures.position), asc(ventures.id));
  const at = list.findIndex((v) => v.id === id);
  const other = list[at + by];
  if (at < 0 || !other) return;
  // Positions renumbered 0..n-1 with the two swapped: the order stays total whatever it was.
  const order = list.map((v) => v.id);
  [order[at], order[at + by]] = [order[at + by]!, order[at]!];
  await batch(db, [
    ...order.map((vid, position) => db.update(ventures).set({ position }).where(eq(ventures.id, vid))),
    auditStatement(db, { actor, action: by < 0 ? "venture.move-up" : "venture.move-down", target: target(id) }, now),
    contentChanged(db),
  ]);
}

/** Adds a key fact to a venture (or the group, null). */
export async function addFact(db: Db, ventureId: string | null, input: FactInput, actor: string, now = Date.now()) {
  await batch(db, [
    db.insert(keyFacts).values({ ventureId, ...input, createdAt: now }),
    auditStatement(
      db,
      { actor, action: "fact.add", target: ventureId ? target(ventureId) : "the group", detail: input.label },
      now,
    ),
    contentChanged(db),
  ]);
}

/** Removes a key fact of that venture (or the group); false when there is none. */
export async function removeFact(db: Db, ventureId: string | null, factId: number, actor: string, now = Date.now()) {
  const [removed] = await batch(db, [
    db
      .delete(keyFacts)
      .where(
        and(
          eq(keyFacts.id, factId),
          ventureId === null ? isNull(keyFacts.ventureId) : eq(keyFacts.ventureId, ventureId),
        ),
      )
      .returning({ id: keyFacts.id }),
    auditIfChanged(
      db,
      { actor, action: "fact.remove", target: ventureId ? target(ventureId) : "the group", detail: `#${factId}` },
      now,
    ),
    contentChanged(db),
  ]);
  return removed.length > 0;
}
