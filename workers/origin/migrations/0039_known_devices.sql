-- Known devices (docs/decisions/061-known-devices.md).
--
-- Anyone who knows a handle could keep it locked by failing at its sign-in: the lock counted
-- per handle, whoever failed. A browser that has signed in with the handle's password now
-- holds a device token; its attempts are counted against that token instead of the handle,
-- so a stranger's failures no longer lock the person out of their own browsers.
--
-- sign_in_failure.handle and sign_in_lock.handle now hold what a failure counts against: a
-- handle, or `device:` and a known device's token hash (handles are [a-z0-9_], so the two
-- never meet). The columns keep their name: a deploy applies migrations before the new code
-- runs, and the code before this one reads `handle`.

-- Only the token's hash is kept, as for sessions. A device stays known for a while after it
-- last signed in or used a session it opened (the code says how long), and is forgotten when
-- the account is taken back (a new password, an admin signing the person out everywhere).
CREATE TABLE known_device (
  token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
) STRICT;
CREATE INDEX known_device_user ON known_device (user_id, last_used_at);
CREATE INDEX known_device_last_used_at ON known_device (last_used_at);

-- The known device a session was opened on: using the session keeps the device known, so a
-- person who stays signed in for months is not a stranger the day they next sign in. At most
-- once a day, so that most uses only read.
ALTER TABLE session ADD COLUMN device_hash TEXT;
CREATE TRIGGER session_use_keeps_device_known AFTER UPDATE OF last_used_at ON session
WHEN NEW.device_hash IS NOT NULL
BEGIN
  UPDATE known_device SET last_used_at = NEW.last_used_at
  WHERE token_hash = NEW.device_hash AND last_used_at < NEW.last_used_at - 86400000;
END;
