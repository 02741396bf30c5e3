/**
 * The contact inbox's URL state (/admin/messages): search, where to search, status filter and the
 * keyset cursor, or one message by its number (the notification e-mail's link, which so names no
 * sender). Shared by the loader, the page's forms and the notification.
 */
import type { ContactStatus } from "~/db/schema";
import { keysetCursor } from "~/utils/keyset-cursor";

const INBOX_PATH = "/admin/messages";
// The schema's statuses, written out: this module also runs in the browser, the schema does not.
const STATUSES = ["open", "answered"] as const satisfies readonly ContactStatus[];
export const STATUS_FILTERS = ["all", ...STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
/** "sender": e-mail or name prefix (index ranges); "subject": every word in the subject. */
const SEARCH_FIELDS = ["sender", "subject"] as const;
type SearchField = (typeof SEARCH_FIELDS)[number];
export const MAX_QUERY = 100;

export interface InboxCursor {
  createdAt: number;
  id: number;
}

export interface InboxQuery {
  q: string;
  in: SearchField;
  status: StatusFilter;
  cursor: InboxCursor | null;
  /** One message by its id (`?message=`): the other filters do not apply. */
  message?: number | null;
}

const cursor = keysetCursor("createdAt");

/** A cursor the inbox never gave out reads as none: a list is never an error. */
function decodeCursor(value: string | null): InboxCursor | null {
  const decoded = cursor.decode(value);
  return decoded === "invalid" ? null : decoded;
}

/** The URL's state, with anything unknown read as the default (a list is never an error). */
export function parseInboxQuery(params: URLSearchParams): InboxQuery {
  const status = params.get("status");
  const field = params.get("in");
  return {
    q: (params.get("q") ?? "").trim().slice(0, MAX_QUERY),
    in: SEARCH_FIELDS.includes(field as SearchField) ? (field as SearchField) : "sender",
    status: STATUS_FILTERS.includes(status as StatusFilter) ? (status as StatusFilter) : "all",
    cursor: decodeCursor(params.get("cursor")),
    message: /^\d{1,15}$/.test(params.get("message") ?? "") ? Number(params.get("message")) : null,
  };
}

/** One message's page in the inbox, by its number: a link that names no sender. */
export const messagePath = (id: number | string) => `${INBOX_PATH}?message=${id}`;

/** The list's URL for a state; defaults are left out so links stay short. */
export function inboxPath(state: Partial<Omit<InboxQuery, "cursor">> & { cursor?: InboxCursor | null }): string {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.q && state.in && state.in !== "sender") params.set("in", state.in);
  if (state.status && state.status !== "all") params.set("status", state.status);
  if (state.cursor) params.set("cursor", cursor.encode(state.cursor));
  const search = params.toString();
  return search ? `${INBOX_PATH}?${search}` : INBOX_PATH;
}

export const isContactStatus = (value: unknown): value is ContactStatus => STATUSES.includes(value as ContactStatus);

/** `mailto:` with the sender and "Re: <subject>", each part percent-encoded (RFC 6068). */
export function replyHref(email: string, subject: string): string {
  const re = /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
  return `mailto:${encodeURIComponent(email).replace(/%40/g, "@")}?subject=${encodeURIComponent(re)}`;
}
