-- The dashboard's audience counts read an index alone (bench/at-size.mjs, docs/decisions/126): the
-- confirmed, unsuppressed subscribers of a topic by hand-off (the hand-off's "not yet" and "handed
-- off", its scope "new") and by their venture choice (the alerts' audience). The index it replaces
-- ended at `handed_off_at`, so each count read every subscriber's row too: 67 000 rows per
-- dashboard view at 100 000 leads.
DROP INDEX `leads_topic_status_handed_off_at_idx`;
CREATE INDEX `leads_audience_idx` ON `leads` (`topic`, `status`, `suppressed_at`, `handed_off_at`, `alert_ventures`);
