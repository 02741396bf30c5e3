import { Card } from "~/components/ui/card";
import type { MailEventCounts } from "~/features/mail/events.server";
import type { FailedDelivery, OutboxQueue } from "~/features/mail/outbox.server";
import { formatInteger, formatIsoDate } from "~/utils/format";

/** A wait as people say it: "40 s", "12 min", "3 h". */
function waitedFor(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** The outbox's queue (docs/decisions/015-mail-delivery.md): shown only while mail waits, so a stuck queue is seen. */
export function MailQueue({ queue, now }: { queue: OutboxQueue; now: number }) {
  if (queue.waiting === 0 || queue.oldestQueuedAt === null) return null;
  return (
    <Card as="section" heading="E-mails waiting to be sent" className="mt-6">
      <p className="text-sm" data-testid="mail-queue">
        <span className="font-medium" data-testid="mail-queue-depth">
          {queue.waiting}
        </span>{" "}
        waiting; the oldest was queued{" "}
        <span className="font-medium" data-testid="mail-queue-oldest">
          {waitedFor(now - queue.oldestQueuedAt)}
        </span>{" "}
        ago ({formatIsoDate(new Date(queue.oldestQueuedAt).toISOString(), "medium")}). Mail normally leaves within
        seconds; a growing wait means the mail service or the mail queue is failing, or the day's sending quota is
        reached (the retries and their errors are in the log).
      </p>
    </Card>
  );
}

/**
 * A burst (docs/decisions/059): the current window's signups or Help messages past the form's
 * ceiling. They are stored and answered as usual; their mail is paced. Shown only during one.
 */
export function Burst({ over }: { over: Partial<Record<"signup" | "contact", number>> }) {
  if (!over.signup && !over.contact) return null;
  return (
    <Card as="section" heading="The site is under a burst" className="mt-6">
      <p className="text-sm" data-testid="burst">
        In the current window,{" "}
        <span className="font-medium" data-testid="burst-signup">
          {formatInteger(over.signup ?? 0)}
        </span>{" "}
        signups and{" "}
        <span className="font-medium" data-testid="burst-contact">
          {formatInteger(over.contact ?? 0)}
        </span>{" "}
        Help messages came beyond the ceiling (LEADS_RATE_LIMIT). Every one is stored and answered as usual; their
        confirmation e-mails wait in the outbox and leave at the ceiling&apos;s pace, and the contact inbox gets one
        e-mail for the Help messages instead of one each.
      </p>
    </Card>
  );
}

/**
 * What the receiving side reported in the last 30 days (the sending domain's delivery events:
 * docs/decisions/015-mail-delivery.md). Bounces and complaints are what get a domain blocked.
 */
export function MailDelivery({ counts }: { counts: MailEventCounts }) {
  return (
    <Card as="section" heading="Mail delivery, last 30 days" className="mt-6">
      <p className="text-sm" data-testid="mail-events">
        <span className="font-medium" data-testid="mail-delivered">
          {formatInteger(counts.delivered)}
        </span>{" "}
        delivered ·{" "}
        <span className="font-medium" data-testid="mail-bounced">
          {formatInteger(counts.bounced)}
        </span>{" "}
        bounced ·{" "}
        <span className="font-medium" data-testid="mail-complained">
          {formatInteger(counts.complained)}
        </span>{" "}
        marked as spam
      </p>
      <p className="mt-2 text-sm text-muted-foreground">
        A hard bounce marks the subscriber undeliverable; a spam complaint unsubscribes and suppresses the address.
      </p>
    </Card>
  );
}

/** E-mails given up after a day of retries (docs/decisions/015-mail-delivery.md); shown only when there are some. */
export function UndeliveredMail({ failed }: { failed: readonly FailedDelivery[] }) {
  if (failed.length === 0) return null;
  return (
    <Card as="section" heading="Undelivered e-mails" className="mt-6">
      <p className="mb-3 text-sm text-muted-foreground">
        These were given up: refused for good, bounced, or still failing after a day of retries. Check the mail settings
        and the service's log.
      </p>
      <ul className="grid gap-2 text-sm" aria-label="Undelivered e-mails">
        {failed.map((m) => (
          <li key={m.id} className="flex flex-wrap justify-between gap-x-4" data-testid="failed-mail">
            <span className="min-w-0 truncate">
              <span className="font-medium">{m.recipient}</span>{" "}
              <span className="text-muted-foreground">· {m.subject}</span>
            </span>
            <span className="text-muted-foreground">
              {formatIsoDate(new Date(m.createdAt).toISOString(), "medium")} · {m.attempts} attempts
              {m.lastError ? ` · ${m.lastError}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
