-- The ledger's check, recorded (docs/decisions/027-recorded-ledger-checks.md): the cron runs it
-- every ten minutes, an operator at will; the overview shows the latest run instead of scanning
-- the whole ledger on every visit.
CREATE TABLE ledger_check_run (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  checked_at INTEGER NOT NULL,
  violations INTEGER NOT NULL CHECK (violations >= 0),
  took_ms INTEGER NOT NULL CHECK (took_ms >= 0),
  ran_by TEXT NOT NULL CHECK (ran_by IN ('cron', 'operator', 'overview'))
) STRICT;
CREATE INDEX ledger_check_run_checked_at ON ledger_check_run (checked_at);
