-- A person sees and forgets their known devices (docs/decisions/069-known-devices-listed.md).
--
-- The account page lists the browsers that have proved the password, so that a person can
-- forget one they no longer use (a shared computer, a sold phone): its token then counts as a
-- stranger's. A device is named as a session is, by the browser it signed in with: its user
-- agent, bounded as the session table bounds it. Devices known before this have none, and the
-- page calls them an unknown browser until they next sign in with the password.
ALTER TABLE known_device ADD COLUMN user_agent TEXT CHECK (user_agent IS NULL OR length(user_agent) <= 512);
