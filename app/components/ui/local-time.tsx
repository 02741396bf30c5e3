import { formatDateTime } from "~/utils/format";
import { formatLocalDateTime } from "~/utils/format-local";
import { useHydrated } from "~/utils/use-hydrated";

/**
 * An instant as the reader's clock shows it: UTC from the server (the same text for everyone,
 * and without JavaScript), the browser's own time zone once hydrated, UTC kept in the tooltip.
 */
export function LocalTime({ ms }: { ms: number }) {
  const hydrated = useHydrated();
  const utc = formatDateTime(ms);
  return (
    <time dateTime={new Date(ms).toISOString()} title={utc}>
      {hydrated ? formatLocalDateTime(ms) : utc}
    </time>
  );
}
