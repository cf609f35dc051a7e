-- Passwords (PBKDF2-SHA256), the sign-in guard, and idempotent requests.
ALTER TABLE user ADD COLUMN password_hash TEXT;
ALTER TABLE user ADD COLUMN password_salt TEXT;
ALTER TABLE user ADD COLUMN password_iterations INTEGER;

-- Failed sign-ins per handle, for the lockout of docs/rules-and-limits.md (handles that do not exist too).
CREATE TABLE sign_in_failure (
  handle TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX sign_in_failure_handle_at ON sign_in_failure (handle, at);

CREATE TABLE sign_in_lock (
  handle TEXT PRIMARY KEY,
  until INTEGER NOT NULL
) STRICT;

-- The first answer to each (scope, Idempotency-Key), written in the same batch as its effect.
CREATE TABLE idempotency (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) STRICT;
