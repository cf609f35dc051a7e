-- Retention (docs/rules-and-limits.md): the cron deletes expired rows in small batches,
-- oldest first; each table is searched by the column its expiry is read from.
CREATE INDEX idempotency_created_at ON idempotency (created_at);
CREATE INDEX session_last_used_at ON session (last_used_at);
CREATE INDEX session_ended_at ON session (ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX sign_in_link_expires_at ON sign_in_link (expires_at);
CREATE INDEX sign_in_failure_at ON sign_in_failure (at);
CREATE INDEX sign_in_lock_until ON sign_in_lock (until);
CREATE INDEX code_failure_at ON code_failure (at);
CREATE INDEX transfer_daily_day ON transfer_daily (day);
