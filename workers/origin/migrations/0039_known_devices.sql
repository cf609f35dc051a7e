-- Known devices (docs/decisions/061-known-devices.md).
--
-- Anyone who knows a handle could keep it locked by failing at its sign-in: the lock counted
-- per handle, whoever failed. A browser that has signed in with the handle's password before
-- now holds a device token; its attempts are counted against that token instead of the
-- handle, so a stranger's failures no longer lock the person out of their own devices, and a
-- stranger without the password can get no token.

-- What a failure counts against: a handle, or `device:` and a known device's token hash.
-- Handles are [a-z0-9_], so the two can never be the same text.
ALTER TABLE sign_in_failure RENAME COLUMN handle TO guard;
ALTER TABLE sign_in_lock RENAME COLUMN handle TO guard;

-- Only the token's hash is kept, as for sessions. A device counts as known for a while after
-- its last sign-in with the password (the code says how long), and is forgotten whenever the
-- person's sessions are ended (a new password, signing out everywhere).
CREATE TABLE known_device (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES user (id),
  created_at INTEGER NOT NULL,
  signed_in_at INTEGER NOT NULL
) STRICT;
CREATE INDEX known_device_user ON known_device (user_id, signed_in_at);
CREATE INDEX known_device_signed_in_at ON known_device (signed_in_at);
