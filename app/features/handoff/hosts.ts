/**
 * The newsletter hosts a hand-off speaks to (docs/decisions/098): the columns each one's import
 * reads, and how each one's own subscriber export says that a reader left. Plain data and pure
 * functions: the hand-off page's form renders the names in the browser too.
 */
import type { HandoffFormat } from "~/db/schema";

export { HANDOFF_FORMATS, HANDOFF_SCOPES, type HandoffFormat, type HandoffScope } from "~/db/schema";

export const HOST_NAMES: Record<HandoffFormat, string> = {
  substack: "Substack",
  ghost: "Ghost",
  buttondown: "Buttondown",
};

/**
 * The columns of each host's import, in order. Substack imports a list of addresses (it asks
 * where they opted in separately: the consent records); Ghost's members CSV; Buttondown reads
 * `email`, `notes` and `tags` by name and keeps `created_at` as the subscription date.
 */
export const IMPORT_COLUMNS = {
  substack: ["email"],
  ghost: ["email", "name", "note", "subscribed_to_emails", "labels", "created_at"],
  buttondown: ["email", "notes", "tags", "created_at"],
} as const satisfies Record<HandoffFormat, readonly string[]>;

/** What a subscriber's row is made of: the lead's fields a host is given, nothing more. */
export interface HandoffSubscriber {
  email: string;
  firstName: string;
  lastName: string | null;
  source: string;
  subscribedAt: Date;
  confirmedAt: Date | null;
  consentMethod: string;
  consentVersion: string | null;
}

/** The note a host keeps beside an address: how and when it opted in. */
const optInNote = (s: HandoffSubscriber, site: string) =>
  `Opted in on ${site} (${s.source}, ${s.consentMethod}${s.consentVersion ? `, consent ${s.consentVersion}` : ""})` +
  (s.confirmedAt ? `, confirmed ${s.confirmedAt.toISOString()}` : "");

/** One subscriber as `format`'s import row, in IMPORT_COLUMNS' order. */
export function importRow(format: HandoffFormat, s: HandoffSubscriber, site: string): string[] {
  switch (format) {
    case "substack":
      return [s.email];
    case "ghost":
      return [
        s.email,
        [s.firstName, s.lastName].filter(Boolean).join(" "),
        optInNote(s, site),
        "true",
        s.source,
        s.subscribedAt.toISOString(),
      ];
    case "buttondown":
      return [s.email, optInNote(s, site), s.source, s.subscribedAt.toISOString()];
  }
}

/** A host's own subscriber export, recognised by its header: where the address is and whether a row left. */
export interface HostExport {
  format: HandoffFormat;
  /** The address column's index. */
  email: number;
  /** Whether a row says the reader's newsletter ended there. */
  ended: (row: readonly string[]) => boolean;
}

const truthy = (v: string | undefined) => ["true", "1", "yes", "t", "y"].includes((v ?? "").trim().toLowerCase());
const falsy = (v: string | undefined) => ["false", "0", "no", "f", "n"].includes((v ?? "").trim().toLowerCase());
/** Buttondown's subscriber types that mean the reader gets no more issues. */
export const BUTTONDOWN_ENDED_TYPES = ["unsubscribed", "removed", "complained", "undeliverable"] as const;

/**
 * The host whose export this header is: Substack's (`email`, `email_disabled`), Ghost's members CSV (`email`, `subscribed_to_emails`) or Buttondown's
 * (`email` or `email_address`, with its subscriber `type` or `subscriber_type`); null otherwise.
 */
export function recogniseExport(header: readonly string[]): HostExport | null {
  const names = header.map((h) =>
    h
      .replace(/^\uFEFF/, "")
      .trim()
      .toLowerCase(),
  );
  const at = (...candidates: string[]) => {
    for (const c of candidates) {
      const i = names.indexOf(c);
      if (i !== -1) return i;
    }
    return -1;
  };
  const email = at("email", "email_address");
  if (email === -1) return null;
  // Only Substack's export has `email_disabled` (beside `active_subscription`, `expiry`…).
  const disabled = at("email_disabled");
  if (disabled !== -1) return { format: "substack", email, ended: (row) => truthy(row[disabled]) };
  const subscribed = at("subscribed_to_emails");
  if (subscribed !== -1) return { format: "ghost", email, ended: (row) => falsy(row[subscribed]) };
  const type = at("type", "subscriber_type");
  if (type !== -1) {
    const ended: readonly string[] = BUTTONDOWN_ENDED_TYPES;
    return { format: "buttondown", email, ended: (row) => ended.includes((row[type] ?? "").trim().toLowerCase()) };
  }
  return null;
}

/**
 * RFC 4180 CSV as rows of cells: quoted cells (with `""` for a quote, and line breaks inside),
 * CRLF or LF line ends, a leading BOM dropped, blank lines skipped. Null when a quote is never
 * closed (not a CSV).
 */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(cell);
    if (row.length > 1 || row[0] !== "") rows.push(row);
    row = [];
    cell = "";
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n") endRow();
    else if (c === "\r") {
      if (text[i + 1] === "\n") i++;
      endRow();
    } else cell += c;
  }
  if (quoted) return null;
  if (cell !== "" || row.length) endRow();
  return rows;
}
