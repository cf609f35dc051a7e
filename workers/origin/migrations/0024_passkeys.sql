-- Passkeys (issue #11, docs/decisions/025-passkeys.md): WebAuthn credentials a person adds
-- to their account and signs in with, and the challenges the origin hands out for them.

-- One row per credential. `credential_id` is the authenticator's id (base64url, unique across
-- all people: an authenticator makes a fresh one each time); `id` is ours, the one the API
-- and its paths use. The public key is the COSE key as registered (base64url).
CREATE TABLE passkey (
  id TEXT PRIMARY KEY,
  credential_id TEXT NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1400),
  user_id TEXT NOT NULL REFERENCES user (id),
  public_key TEXT NOT NULL,
  -- The signature counter last seen; 0 for authenticators that keep none (most passkeys).
  counter INTEGER NOT NULL CHECK (counter >= 0),
  -- JSON array of the transports the browser reported ("internal", "hybrid", "usb", …).
  transports TEXT NOT NULL DEFAULT '[]',
  device_type TEXT NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up INTEGER NOT NULL CHECK (backed_up IN (0, 1)),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
) STRICT;

CREATE INDEX passkey_by_user ON passkey (user_id, created_at);

-- A lock that commits while a passkey is being added wins (as migration 0017's triggers do
-- for money): the insert fails and the answer is 403 ACCOUNT_LOCKED.
CREATE TRIGGER passkey_owner_not_locked BEFORE INSERT ON passkey
WHEN EXISTS (SELECT 1 FROM user WHERE id = NEW.user_id AND locked_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'account_locked: the passkey owner is locked'); END;

-- Challenges are single use: a verification deletes its challenge (DELETE … RETURNING) before
-- it checks anything else, and D1 runs one statement at a time, so of two verifications of
-- one challenge only one finds it. `user_id` binds a registration challenge to the person who
-- asked for it; sign-in challenges have none (the passkey names its person).
CREATE TABLE webauthn_challenge (
  challenge TEXT PRIMARY KEY CHECK (length(challenge) BETWEEN 16 AND 128),
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign_in')),
  user_id TEXT REFERENCES user (id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  CHECK ((purpose = 'register') = (user_id IS NOT NULL))
) STRICT;

-- The cron prunes expired challenges (retention/retention.ts).
CREATE INDEX webauthn_challenge_expiry ON webauthn_challenge (expires_at);
