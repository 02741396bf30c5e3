import type { AuditLine } from "~/features/admin/audit-words.server";
import { formatIsoDate } from "~/utils/format";

/**
 * The latest admin actions, newest first, in words. Every part wraps anywhere: a long title, an
 * address or a hash stays inside a 412 px phone.
 */
export function AuditLog({ entries }: { entries: readonly AuditLine[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No admin actions yet</p>;
  return (
    <ol className="grid gap-2 text-sm [overflow-wrap:anywhere]" aria-label="Latest admin actions">
      {entries.map((e) => (
        <li key={e.id} className="flex min-w-0 flex-wrap justify-between gap-x-4" data-testid="audit-entry">
          <span className="min-w-0">{e.text}</span>
          <span className="min-w-0 text-muted-foreground">
            {e.actor} ·{" "}
            <time dateTime={new Date(e.at).toISOString()}>{formatIsoDate(new Date(e.at).toISOString(), "medium")}</time>
          </span>
        </li>
      ))}
    </ol>
  );
}
