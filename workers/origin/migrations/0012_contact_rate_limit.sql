-- The contact form works signed out (docs/screens.md), so it is bounded by who sends: each
-- accepted message is counted per client address and per email address, in the batch that
-- opens its ticket, where a batch assertion refuses what would pass a limit. Rows older
-- than the window are deleted by the same batches.
CREATE TABLE contact_attempt (
  address TEXT NOT NULL CHECK (length(address) BETWEEN 1 AND 64),
  email TEXT NOT NULL CHECK (length(email) BETWEEN 1 AND 254),
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX contact_attempt_address ON contact_attempt (address, at);
CREATE INDEX contact_attempt_email ON contact_attempt (email, at);
CREATE INDEX contact_attempt_at ON contact_attempt (at);
