-- The back office's overview (GET /api/ops/overview): the last 30 days of journal
-- transactions by time, and tickets waiting by status and age.
CREATE INDEX journal_tx_created_at ON journal_tx (created_at);
