/** The leads filters' shape, shared by the workbench's form (browser) and its server code. */
import type { LeadStatus, LeadTopic } from "~/db/enums";

/** Which leads a list, count or export covers: one status, or every lead. */
export type LeadFilter = LeadStatus | "all";
/** What the admin views and the API show unless asked otherwise: the people who confirmed. */
export const DEFAULT_FILTER: LeadFilter = "confirmed";

export interface LeadFilters {
  /** Lower case; an e-mail prefix, or with no "@" also a first- or last-name prefix. */
  q?: string;
  source?: string;
  status: LeadFilter;
  /** The newsletter's leads when absent (the lists, counts and CSV the product defines), or the investor alerts'. */
  topic?: LeadTopic;
  /** UTC calendar days, both included. */
  from?: string;
  to?: string;
}

export type FilterErrors = Partial<Record<keyof LeadFilters, string>>;
