-- Mail through Cloudflare Queues (docs/decisions/015-mail-delivery.md, issue 25): each message is
-- claimed alone, right before it is sent, until `leased_until` (ms since the epoch; 0 when nobody
-- holds it). `next_attempt_at` keeps saying when it is due, which the Cron Trigger's safety net
-- reads; the queue's consumer only needs the message not to be in flight elsewhere.
ALTER TABLE `mail_outbox` ADD `leased_until` integer DEFAULT 0 NOT NULL;
