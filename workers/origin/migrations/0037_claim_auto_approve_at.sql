-- When a submission nobody checked is approved, fixed when it is submitted from the deploy's
-- time limits then (docs/decisions/055-deploy-time-limits.md): a poster keeps the time they
-- were given, whatever the setting becomes. Claims submitted before had the product's 72 hours.
ALTER TABLE claim ADD COLUMN auto_approve_at INTEGER;
UPDATE claim SET auto_approve_at = submitted_at + 259200000 WHERE submitted_at IS NOT NULL;
