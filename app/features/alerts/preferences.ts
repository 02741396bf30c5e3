/**
 * An investor's choice of alerts (docs/decisions/099): which ventures and which kinds of item. A
 * lead of the `alerts` topic stores each as a JSON array of ids; null (nothing ticked) means all,
 * and for the ventures "all" also takes in the group's own items. Plain data: the preferences
 * page and Settings render it in the browser too.
 */
import type { Lead } from "~/db/schema";

/** The kinds a subscriber may choose, in the form's order. */
export const ALERT_KINDS = ["news", "documents", "events"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  news: "News",
  documents: "Documents",
  events: "Events",
};

/** The form's field names: checkboxes, one per value, each group after its "all"/"some" radio. */
export const PREFERENCE_FIELDS = {
  venture: "venture",
  kind: "kind",
  ventureScope: "ventures",
  kindScope: "kinds",
} as const;

/** What a subscriber chose: null for "all" (nothing ticked). */
export interface AlertChoice {
  ventures: string[] | null;
  kinds: AlertKind[] | null;
}

export const ALL_ALERTS: AlertChoice = { ventures: null, kinds: null };

function parseList(value: string | null): string[] | null {
  if (!value) return null;
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) && list.length ? list.filter((v): v is string => typeof v === "string") : null;
  } catch {
    return null;
  }
}

/** A lead's stored choice. */
export function choiceOf(lead: Pick<Lead, "alertVentures" | "alertKinds">): AlertChoice {
  const kinds = parseList(lead.alertKinds)?.filter((k): k is AlertKind =>
    (ALERT_KINDS as readonly string[]).includes(k),
  );
  return { ventures: parseList(lead.alertVentures), kinds: kinds?.length ? kinds : null };
}

/** A choice as the lead's columns store it. */
export function choiceColumns(choice: AlertChoice): Pick<Lead, "alertVentures" | "alertKinds"> {
  return {
    alertVentures: choice.ventures?.length ? JSON.stringify(choice.ventures) : null,
    alertKinds: choice.kinds?.length ? JSON.stringify(choice.kinds) : null,
  };
}

/**
 * The form's ticked boxes as a choice: "all" chosen by a group's radio is all, whatever is ticked;
 * only known ventures and kinds count; ticking every box is the same as ticking none (all), so a
 * venture added later reaches those who wanted everything.
 */
export function choiceFromForm(form: FormData, ventureIds: readonly string[]): AlertChoice {
  const scopes: Record<string, string> = {
    [PREFERENCE_FIELDS.venture]: PREFERENCE_FIELDS.ventureScope,
    [PREFERENCE_FIELDS.kind]: PREFERENCE_FIELDS.kindScope,
  };
  const ticked = (name: string, known: readonly string[]) => {
    if (form.get(scopes[name]!) === "all") return null;
    const values = new Set(form.getAll(name).map(String));
    const list = known.filter((v) => values.has(v));
    return list.length && list.length < known.length ? list : null;
  };
  return {
    ventures: ticked(PREFERENCE_FIELDS.venture, ventureIds),
    kinds: ticked(PREFERENCE_FIELDS.kind, ALERT_KINDS) as AlertKind[] | null,
  };
}

/** A choice in words ("All ventures and the group; news, documents"). */
export function describeChoice(choice: AlertChoice, ventureName: (id: string) => string): string {
  const ventures = choice.ventures ? choice.ventures.map(ventureName).join(", ") : "all ventures and the group";
  const kinds = choice.kinds ? choice.kinds.map((k) => ALERT_KIND_LABELS[k].toLowerCase()).join(", ") : "every kind";
  return `${ventures}; ${kinds}`;
}

/** A venture as the choice names it. */
export interface AlertVenture {
  id: string;
  name: string;
}

/** The dashboard's alerts subscribers by venture. */
export interface AlertsAudience {
  /** Confirmed alerts subscribers who kept "all" (every venture and the group). */
  all: number;
  /** Per venture, in the catalogue's order: those who chose it among some. */
  ventures: (AlertVenture & { chose: number })[];
}
