-- A recovery link needs a second admin (docs/decisions/062-recovery-links-need-a-second-admin.md).
--
-- A recovery link sets a new password on someone's account: whoever holds it takes the
-- account, and its money. One admin alone could issue one for anyone and use it. Now an
-- admin asks, with how they checked who the person is; another admin approves or rejects;
-- whoever asked issues the link once approved, and it is shown to them then, once.

-- 1. The requests. Each is open for a day: an identity check is not fresh for longer.
CREATE TABLE recovery_link_request (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  status TEXT NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected', 'issued')),
  requested_by TEXT NOT NULL REFERENCES user (id),
  requested_at INTEGER NOT NULL,
  open_until INTEGER NOT NULL,
  decided_by TEXT REFERENCES user (id),
  decided_at INTEGER,
  decision_note TEXT CHECK (decision_note IS NULL OR length(decision_note) BETWEEN 1 AND 500),
  issued_at INTEGER,
  CHECK ((status = 'awaiting_approval') = (decided_by IS NULL)),
  CHECK ((decided_by IS NULL) = (decided_at IS NULL)),
  CHECK (status <> 'rejected' OR decision_note IS NOT NULL),
  CHECK ((status = 'issued') = (issued_at IS NOT NULL)),
  -- Nobody asks for their own account, and nobody decides on what they asked for, or on a
  -- link to their own account.
  CHECK (requested_by <> user_id),
  CHECK (decided_by IS NULL OR (decided_by <> requested_by AND decided_by <> user_id))
) STRICT;
CREATE INDEX recovery_link_request_requested ON recovery_link_request (requested_at, id);
CREATE INDEX recovery_link_request_person ON recovery_link_request (user_id, requested_at);

-- A request starts awaiting a decision and moves only forward: awaiting → approved or
-- rejected, approved → issued (only by the link that carries it out, below). What was asked
-- and who decided never change, and no request is deleted.
CREATE TRIGGER recovery_link_request_awaits BEFORE INSERT ON recovery_link_request
WHEN NEW.status <> 'awaiting_approval'
BEGIN SELECT RAISE(ABORT, 'recovery link request: a request starts awaiting a decision'); END;
CREATE TRIGGER recovery_link_request_forward BEFORE UPDATE ON recovery_link_request
WHEN NOT ((OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected') AND NEW.issued_at IS NULL)
          OR (OLD.status = 'approved' AND NEW.status = 'issued' AND NEW.decided_by = OLD.decided_by AND NEW.decided_at = OLD.decided_at
              AND NEW.decision_note IS OLD.decision_note
              AND EXISTS (SELECT 1 FROM recovery_link WHERE request_id = NEW.id AND created_at = NEW.issued_at)))
  OR NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.reason <> OLD.reason OR NEW.requested_by <> OLD.requested_by
  OR NEW.requested_at <> OLD.requested_at OR NEW.open_until <> OLD.open_until
BEGIN SELECT RAISE(ABORT, 'recovery link request: a decided request does not change'); END;
CREATE TRIGGER recovery_link_request_kept BEFORE DELETE ON recovery_link_request
BEGIN SELECT RAISE(ABORT, 'recovery link request: requests are kept'); END;

-- 2. Every link from now on carries an approved request, still open, and is issued by
-- whoever asked, for the person asked about; issuing it marks the request issued. Links
-- issued before this migration keep a NULL request (they expire within the hour anyway).
ALTER TABLE recovery_link ADD COLUMN request_id TEXT REFERENCES recovery_link_request (id);
CREATE UNIQUE INDEX recovery_link_of_request ON recovery_link (request_id) WHERE request_id IS NOT NULL;
CREATE TRIGGER recovery_link_as_approved BEFORE INSERT ON recovery_link
WHEN NEW.request_id IS NULL OR NOT EXISTS (
  SELECT 1 FROM recovery_link_request
  WHERE id = NEW.request_id AND status = 'approved' AND user_id = NEW.user_id AND requested_by = NEW.issued_by
    AND open_until > NEW.created_at
)
BEGIN SELECT RAISE(ABORT, 'recovery link request: only an approved, open request is issued, once, by whoever asked'); END;
CREATE TRIGGER recovery_link_request_issued AFTER INSERT ON recovery_link
BEGIN UPDATE recovery_link_request SET status = 'issued', issued_at = NEW.created_at WHERE id = NEW.request_id; END;
CREATE TRIGGER recovery_link_request_fixed BEFORE UPDATE OF request_id ON recovery_link
BEGIN SELECT RAISE(ABORT, 'recovery link request: a link keeps its request'); END;
