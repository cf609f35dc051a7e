-- A person's own account safety (docs/decisions/024-account-safety.md): sessions they can
-- see and end, recovery codes, and recovery links an admin issues.

-- A session's public id (never its token's hash), and what the person sees of it: the
-- browser that signed in and roughly where (Cloudflare's view of the client, via the edge).
ALTER TABLE session ADD COLUMN id TEXT CHECK (id IS NULL OR length(id) BETWEEN 8 AND 64);
ALTER TABLE session ADD COLUMN user_agent TEXT CHECK (user_agent IS NULL OR length(user_agent) <= 512);
ALTER TABLE session ADD COLUMN place TEXT CHECK (place IS NULL OR length(place) <= 160);
UPDATE session SET id = 'ses_' || lower(hex(randomblob(16))) WHERE id IS NULL;
CREATE UNIQUE INDEX session_id ON session (id);
-- Every way a session is made (sign-in, a sign-in link, a seeded test session) gets an id.
CREATE TRIGGER session_gets_id AFTER INSERT ON session WHEN NEW.id IS NULL
BEGIN
  UPDATE session SET id = 'ses_' || lower(hex(randomblob(16))) WHERE token_hash = NEW.token_hash;
END;
-- The account page lists a person's live sessions, most recently used first.
CREATE INDEX session_user_live ON session (user_id, last_used_at DESC) WHERE ended_at IS NULL;

-- Ten one-time codes per person, stored as SHA-256 of the person's id and the code; a new
-- set replaces the old one (its unused codes stop working).
CREATE TABLE recovery_code (
  code_hash TEXT PRIMARY KEY CHECK (length(code_hash) = 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  created_at INTEGER NOT NULL,
  used_at INTEGER
) STRICT;
CREATE INDEX recovery_code_user ON recovery_code (user_id, used_at);

-- A single-use link an admin issues for someone with neither password, passkey nor code,
-- after checking who they are (the reason is in the audit trail). One outstanding per person.
CREATE TABLE recovery_link (
  token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  issued_by TEXT NOT NULL REFERENCES user (id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  CHECK (issued_by <> user_id)
) STRICT;
CREATE INDEX recovery_link_user ON recovery_link (user_id) WHERE used_at IS NULL;
CREATE INDEX recovery_link_expires_at ON recovery_link (expires_at);
