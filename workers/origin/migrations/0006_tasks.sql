-- Paid tasks (docs/rules-and-limits.md). A task's budget is held in its poster's `held` bucket once
-- its order is paid; `escrow_remaining` says how much of that hold is this task's.
PRAGMA defer_foreign_keys = on;

CREATE TABLE task (
  id TEXT PRIMARY KEY,
  poster_id TEXT NOT NULL REFERENCES user (id),
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
  description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 2000),
  reward INTEGER NOT NULL CHECK (reward BETWEEN 10 AND 100000),
  slots INTEGER NOT NULL CHECK (slots BETWEEN 1 AND 1000),
  deadline INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'awaiting_payment' CHECK (status IN ('awaiting_payment', 'open', 'closed', 'cancelled')),
  order_id TEXT NOT NULL UNIQUE REFERENCES orders (id),
  escrow_remaining INTEGER NOT NULL DEFAULT 0 CONSTRAINT task_escrow_not_negative CHECK (escrow_remaining >= 0),
  -- Claims that hold a slot (claimed, submitted, approved).
  slots_taken INTEGER NOT NULL DEFAULT 0 CONSTRAINT task_slots_full CHECK (slots_taken BETWEEN 0 AND slots),
  created_at INTEGER NOT NULL,
  opened_at INTEGER
) STRICT;
CREATE INDEX task_open ON task (status, deadline);
CREATE INDEX task_poster ON task (poster_id, created_at DESC);

-- A succeeded payment only for an order still payable: pending and not expired.
CREATE TRIGGER payment_only_for_payable_order BEFORE INSERT ON payment
WHEN NEW.status = 'succeeded'
  AND NOT EXISTS (SELECT 1 FROM orders WHERE id = NEW.order_id AND status = 'pending' AND expires_at > NEW.created_at)
BEGIN SELECT RAISE(ABORT, 'payment: the order is not payable'); END;
