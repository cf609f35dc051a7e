-- Returning escrow no longer needed (deadline, cancel): guarded like a capture. The row
-- states the escrow it was computed from, so two releases at once cannot both happen.
PRAGMA defer_foreign_keys = on;

CREATE TABLE escrow_release (
  tx_id TEXT PRIMARY KEY REFERENCES journal_tx (id),
  task_id TEXT NOT NULL REFERENCES task (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  escrow_before INTEGER NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX escrow_release_task ON escrow_release (task_id);

CREATE TRIGGER release_from_stated_escrow BEFORE INSERT ON escrow_release
WHEN (SELECT escrow_remaining FROM task WHERE id = NEW.task_id) IS NOT NEW.escrow_before
  OR (SELECT status FROM task WHERE id = NEW.task_id) NOT IN ('closed', 'cancelled')
BEGIN SELECT RAISE(ABORT, 'tasks: the escrow changed or the task is still open'); END;

CREATE TRIGGER release_reduces_escrow AFTER INSERT ON escrow_release
BEGIN UPDATE task SET escrow_remaining = escrow_remaining - NEW.amount WHERE id = NEW.task_id; END;

-- A closed or cancelled task stays so.
CREATE TRIGGER task_final BEFORE UPDATE OF status ON task
WHEN OLD.status IN ('closed', 'cancelled') AND NEW.status <> OLD.status
BEGIN SELECT RAISE(ABORT, 'tasks: a closed or cancelled task does not reopen'); END;
