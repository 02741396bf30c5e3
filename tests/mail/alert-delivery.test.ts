// Investor alerts already queued when their reader unsubscribes (issue 53): the sender reads the
// lead's alerts status right before sending, so the queued mail goes to nobody who left, against
// the real local SMTP server and D1.
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { alertMailKind, alertProgress, fanOutAlerts, startAlert } from "~/features/alerts/alerts.server";
import { unsubscribeLead } from "~/features/leads/subscription.server";
import { deliverDueMail } from "~/features/mail/outbox.server";
import { batch, getDb } from "~/utils/db.server";
import { listMail, waitForMail } from "../fixtures/inbox";

const inbox = inject("inboxURL");

describe("a queued alert", () => {
  it("is not sent to a reader who unsubscribed from the alerts after it was queued", async () => {
    const id = crypto.randomUUID().slice(0, 8);
    const [stays, leaves] = [`stays-${id}@afx.test`, `leaves-${id}@afx.test`];
    await env.DB.batch(
      [stays, leaves].map((email) =>
        env.DB.prepare(
          "INSERT INTO leads (email, first_name, source, subscribed_at, status, topic) VALUES (?, 'Ivy', 'settings', ?, 'confirmed', 'alerts')",
        ).bind(email, Date.now()),
      ),
    );
    const title = `Results ${id}`;
    await batch(getDb(env), [
      startAlert(
        { kind: "news", id, title, summary: "Up.", url: `https://afx.test/news/${id}`, venture: null },
        Date.now(),
      ),
    ]);
    await fanOutAlerts(env);
    const queued = await env.DB.prepare("SELECT recipient FROM mail_outbox WHERE kind = ? ORDER BY recipient")
      .bind(alertMailKind("news", id))
      .all<{ recipient: string }>();
    expect(queued.results.map((r) => r.recipient)).toEqual([leaves, stays]);

    // Unsubscribed (its one-click link, the settings or a complaint) before the sender ran.
    expect(await unsubscribeLead(getDb(env), { email: leaves, topic: "alerts" })).toBe(true);
    await deliverDueMail(env);
    await waitForMail(inbox, { to: stays, subject: `AFX Holding Group: ${title}` });
    expect(await listMail(inbox, { to: leaves })).toHaveLength(0);
    const left = await env.DB.prepare("SELECT recipient, status FROM mail_outbox WHERE kind = ?")
      .bind(alertMailKind("news", id))
      .all<{ recipient: string; status: string }>();
    expect(left.results).toEqual([{ recipient: stays, status: "sent" }]);
    // The admin's "alert sent N of M" counts this item's recipients: the one who left is none.
    expect((await alertProgress(getDb(env), "news", [id])).get(id)).toEqual({ sent: 1, total: 1, preparing: false });
  });
});
