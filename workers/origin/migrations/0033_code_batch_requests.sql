-- Code batches past what one operator may issue alone wait for a second operator
-- (docs/decisions/049-code-batches-need-a-second-operator.md).
--
-- 1. One row per batch asked for that waited: what was asked, by whom, who decided. Approved,
-- it is issued once, by whoever asked (the codes are shown to them, once, then): `issued`.
CREATE TABLE code_batch_request (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  value INTEGER NOT NULL CHECK (value > 0 AND value <= 100000000),
  count INTEGER NOT NULL CHECK (count BETWEEN 1 AND 1000),
  expires_at INTEGER NOT NULL,
  note TEXT NOT NULL CHECK (length(note) BETWEEN 1 AND 200),
  status TEXT NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected', 'issued')),
  requested_by TEXT NOT NULL REFERENCES user (id),
  requested_at INTEGER NOT NULL,
  decided_by TEXT REFERENCES user (id),
  decided_at INTEGER,
  decision_note TEXT CHECK (decision_note IS NULL OR length(decision_note) BETWEEN 1 AND 500),
  CHECK ((status = 'awaiting_approval') = (decided_by IS NULL)),
  CHECK ((decided_by IS NULL) = (decided_at IS NULL)),
  CHECK (status <> 'rejected' OR decision_note IS NOT NULL),
  -- Maker-checker: whoever decides is not whoever asked.
  CHECK (decided_by IS NULL OR decided_by <> requested_by)
) STRICT;
CREATE INDEX code_batch_request_requested ON code_batch_request (requested_at, id);

-- A request starts awaiting a decision, and moves only forward: awaiting → approved or
-- rejected, approved → issued (only by the batch that carries it out, below); what was asked
-- and who decided never change, and no request is deleted.
CREATE TRIGGER code_batch_request_awaits BEFORE INSERT ON code_batch_request
WHEN NEW.status <> 'awaiting_approval'
BEGIN SELECT RAISE(ABORT, 'code request: a request starts awaiting a decision'); END;
CREATE TRIGGER code_batch_request_forward BEFORE UPDATE ON code_batch_request
WHEN NOT ((OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected'))
          OR (OLD.status = 'approved' AND NEW.status = 'issued' AND NEW.decided_by = OLD.decided_by AND NEW.decided_at = OLD.decided_at
              AND NEW.decision_note IS OLD.decision_note AND EXISTS (SELECT 1 FROM code_batch WHERE request_id = NEW.id)))
  OR NEW.id <> OLD.id OR NEW.value <> OLD.value OR NEW.count <> OLD.count OR NEW.expires_at <> OLD.expires_at
  OR NEW.note <> OLD.note OR NEW.requested_by <> OLD.requested_by OR NEW.requested_at <> OLD.requested_at
BEGIN SELECT RAISE(ABORT, 'code request: a decided request does not change'); END;
CREATE TRIGGER code_batch_request_kept BEFORE DELETE ON code_batch_request
BEGIN SELECT RAISE(ABORT, 'code request: requests are kept'); END;

-- 2. The batch an approved request became. Only an approved request is issued, once, as it
-- was asked and by whoever asked; issuing it marks the request issued in the same statement.
ALTER TABLE code_batch ADD COLUMN request_id TEXT REFERENCES code_batch_request (id);
CREATE UNIQUE INDEX code_batch_of_request ON code_batch (request_id) WHERE request_id IS NOT NULL;
-- What one operator issued alone lately (the threshold's sum) is read by this index.
CREATE INDEX code_batch_alone ON code_batch (issued_by, issued_at) WHERE request_id IS NULL;

CREATE TRIGGER code_batch_as_approved BEFORE INSERT ON code_batch
WHEN NEW.request_id IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM code_batch_request
  WHERE id = NEW.request_id AND status = 'approved' AND value = NEW.value AND count = NEW.count
    AND expires_at = NEW.expires_at AND note = NEW.note AND requested_by = NEW.issued_by
)
BEGIN SELECT RAISE(ABORT, 'code request: only an approved request is issued, once, as asked, by whoever asked'); END;
CREATE TRIGGER code_batch_request_issued AFTER INSERT ON code_batch
WHEN NEW.request_id IS NOT NULL
BEGIN UPDATE code_batch_request SET status = 'issued' WHERE id = NEW.request_id; END;
CREATE TRIGGER code_batch_request_fixed BEFORE UPDATE OF request_id ON code_batch
BEGIN SELECT RAISE(ABORT, 'codes: a batch is issued once'); END;
