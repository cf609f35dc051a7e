-- Sign-in links (issue #3): a token for the token helper, single use, 15 minutes.
-- Stored as a hash like session tokens; on first use it is exchanged for a new session.
CREATE TABLE sign_in_link (
  token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) STRICT;
