-- Support tickets (docs/rules-and-limits.md): open → answered → closed; messages up to 4,000 characters.
PRAGMA defer_foreign_keys = on;

CREATE TABLE ticket (
  id TEXT PRIMARY KEY,
  -- A signed-in user's ticket, or one opened from the contact form with an email to answer.
  user_id TEXT REFERENCES user (id),
  email TEXT CHECK (email IS NULL OR length(email) BETWEEN 3 AND 254),
  category TEXT NOT NULL CHECK (category IN ('payment', 'order', 'transfer', 'task', 'account', 'other')),
  subject TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 120),
  order_id TEXT REFERENCES orders (id),
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK (user_id IS NOT NULL OR email IS NOT NULL)
) STRICT;
CREATE INDEX ticket_user ON ticket (user_id, updated_at DESC);
CREATE INDEX ticket_status ON ticket (status, updated_at);

CREATE TABLE ticket_message (
  id INTEGER PRIMARY KEY,
  ticket_id TEXT NOT NULL REFERENCES ticket (id),
  author TEXT NOT NULL CHECK (author IN ('user', 'operator')),
  body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 4000),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX ticket_message_ticket ON ticket_message (ticket_id, id);

-- A message moves the ticket: the operator's answers it, the user's reopens it.
CREATE TRIGGER ticket_message_moves_ticket AFTER INSERT ON ticket_message
BEGIN
  UPDATE ticket
  SET status = CASE NEW.author WHEN 'operator' THEN 'answered' ELSE 'open' END, updated_at = NEW.created_at
  WHERE id = NEW.ticket_id;
END;

CREATE TRIGGER ticket_closed_stays_closed BEFORE INSERT ON ticket_message
WHEN (SELECT status FROM ticket WHERE id = NEW.ticket_id) = 'closed'
BEGIN SELECT RAISE(ABORT, 'support: the ticket is closed'); END;
