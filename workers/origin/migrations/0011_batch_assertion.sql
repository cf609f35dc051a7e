-- An assertion inside a D1 batch. D1 runs no JavaScript between a batch's statements, and
-- an UPDATE that matches no row is no error, so a batch whose effect and answer were worked
-- out from an earlier read states what it read here: the whole batch rolls back (error
-- `batch_assertion`) when that no longer holds.
--   INSERT INTO batch_assertion (what, holds) SELECT 'task unchanged', (<condition>)
-- Nothing is kept: the row leaves in the same statement.
CREATE TABLE batch_assertion (
  what TEXT NOT NULL,
  holds INTEGER NOT NULL CONSTRAINT batch_assertion_holds CHECK (holds = 1)
) STRICT;

CREATE TRIGGER batch_assertion_keeps_nothing AFTER INSERT ON batch_assertion
BEGIN DELETE FROM batch_assertion WHERE rowid = NEW.rowid; END;
