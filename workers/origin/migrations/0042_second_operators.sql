-- A second operator is another person, for refunds and code batches too
-- (docs/decisions/064-second-operators-are-other-people.md).
--
-- A refund past the threshold and a large code batch wait for a second operator, who was only
-- "not the one who asked". Now, as for roles and recovery links (migration 0041), whoever
-- decides holds finance or admin since before the request, and no chain of grants links them
-- to the operator who asked, either way (the view operators_linked). A refund within the
-- threshold is written approved at once, with nobody deciding; one that waited is decided by
-- someone.

CREATE TRIGGER refund_request_second_operator BEFORE UPDATE OF status ON refund_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected') AND (
  NEW.decided_by IS NULL
  OR NOT EXISTS (
    SELECT 1 FROM operator_role
    WHERE user_id = NEW.decided_by AND role IN ('finance', 'admin') AND granted_at <= OLD.requested_at
  )
  OR EXISTS (
    SELECT 1 FROM operators_linked WHERE operator_id = NEW.decided_by AND other_id = OLD.requested_by
  )
)
BEGIN SELECT RAISE(ABORT, 'refund: decided by a second operator'); END;

CREATE TRIGGER code_batch_request_second_operator BEFORE UPDATE OF status ON code_batch_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected') AND (
  NOT EXISTS (
    SELECT 1 FROM operator_role
    WHERE user_id = NEW.decided_by AND role IN ('finance', 'admin') AND granted_at <= OLD.requested_at
  )
  OR EXISTS (
    SELECT 1 FROM operators_linked WHERE operator_id = NEW.decided_by AND other_id = OLD.requested_by
  )
)
BEGIN SELECT RAISE(ABORT, 'code request: decided by a second operator'); END;
