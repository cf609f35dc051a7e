-- Accounts and sessions: the slice of the data model that `POST /api/user/session` needs.
-- Money columns are integer minor units; STRICT rejects anything else.
PRAGMA defer_foreign_keys = on;

CREATE TABLE user (
  id TEXT PRIMARY KEY,
  handle TEXT NOT NULL UNIQUE CHECK (length(handle) BETWEEN 3 AND 32 AND handle NOT GLOB '*[^a-z0-9_]*'),
  display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 64),
  created_at INTEGER NOT NULL
) STRICT;

-- Tokens are stored only as their SHA-256 hash (docs/rules-and-limits.md, sign-in).
CREATE TABLE session (
  token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  ended_at INTEGER
) STRICT;
CREATE INDEX session_user ON session (user_id);

-- A ledger account; a user's wallet is the account of kind 'user' they own.
CREATE TABLE account (
  id TEXT PRIMARY KEY,
  owner_id TEXT REFERENCES user (id),
  kind TEXT NOT NULL CHECK (kind IN ('user', 'escrow', 'world', 'revenue')),
  currency TEXT NOT NULL DEFAULT 'CNY' CHECK (currency = 'CNY'),
  available INTEGER NOT NULL DEFAULT 0,
  held INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT account_not_negative CHECK (kind = 'world' OR (available >= 0 AND held >= 0))
) STRICT;
CREATE UNIQUE INDEX account_user_wallet ON account (owner_id) WHERE kind = 'user';
