-- A person sees and forgets their known devices (docs/decisions/069-known-devices-listed.md).
--
-- The account page lists the browsers that have proved the password, so that a person can
-- forget one they no longer use (a shared computer, a sold phone): its token then counts as a
-- stranger's.

-- A device is named as a session is, by the browser it signed in with: its user agent,
-- bounded as the session table bounds it. Devices known before this have none, and the page
-- calls them an unknown device until they next prove the password.
ALTER TABLE known_device ADD COLUMN user_agent TEXT CHECK (user_agent IS NULL OR length(user_agent) <= 512);

-- Its public id, random as a session's is: never anything of its token or the token's hash.
-- The database gives every row one, so rows the code before this one inserts (between this
-- migration and the deploy) get one too.
ALTER TABLE known_device ADD COLUMN id TEXT CHECK (id IS NULL OR (length(id) = 36 AND id GLOB 'dev_*'));
UPDATE known_device SET id = 'dev_' || lower(hex(randomblob(16))) WHERE id IS NULL;
CREATE UNIQUE INDEX known_device_id ON known_device (id);
CREATE TRIGGER known_device_gets_id AFTER INSERT ON known_device
WHEN NEW.id IS NULL
BEGIN
  UPDATE known_device SET id = 'dev_' || lower(hex(randomblob(16))) WHERE token_hash = NEW.token_hash;
END;
