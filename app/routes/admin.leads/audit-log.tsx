import type { AuditEntry } from "~/features/admin/audit.server";
import { formatIsoDate } from "~/utils/format";

/** The latest admin actions, newest first. */
export function AuditLog({ entries }: { entries: readonly AuditEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No admin actions yet</p>;
  return (
    <ol className="grid gap-2 text-sm" aria-label="Latest admin actions">
      {entries.map((e) => (
        <li key={e.id} className="flex flex-wrap justify-between gap-x-4" data-testid="audit-entry">
          <span>
            <span className="font-medium">{e.action}</span> {e.target}
            {e.detail ? <span className="text-muted-foreground"> · {e.detail}</span> : null}
          </span>
          <span className="text-muted-foreground">
            {e.actor} ·{" "}
            <time dateTime={new Date(e.at).toISOString()}>{formatIsoDate(new Date(e.at).toISOString(), "medium")}</time>
          </span>
        </li>
      ))}
    </ol>
  );
}
