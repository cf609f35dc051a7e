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
  CHECK (open_until - requested_at BETWEEN 1 AND 86400000),
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
WHEN NEW.status <> 'awaiting_approval' OR NEW.decision_note IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'recovery link request: a request starts awaiting a decision'); END;
-- An operator's account is not recovered by a link: whoever held the link would hold the role.
-- The role is revoked first, and granted again once its owner is back in.
CREATE TRIGGER recovery_link_request_not_an_operator BEFORE INSERT ON recovery_link_request
WHEN EXISTS (SELECT 1 FROM operator_role WHERE user_id = NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'recovery link request: not for an operator''s account'); END;
CREATE TRIGGER recovery_link_request_forward BEFORE UPDATE ON recovery_link_request
WHEN NOT ((OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected') AND NEW.issued_at IS NULL)
          OR (OLD.status = 'approved' AND NEW.status = 'issued' AND NEW.decided_by = OLD.decided_by AND NEW.decided_at = OLD.decided_at
              AND NEW.decision_note IS OLD.decision_note
              AND EXISTS (SELECT 1 FROM recovery_link WHERE request_id = NEW.id AND created_at = NEW.issued_at)))
  OR NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.reason <> OLD.reason OR NEW.requested_by <> OLD.requested_by
  OR NEW.requested_at <> OLD.requested_at OR NEW.open_until <> OLD.open_until
BEGIN SELECT RAISE(ABORT, 'recovery link request: a decided request does not change'); END;
-- An approval comes within the day, from an admin who was one before the request was made and
-- whom the asker did not make one: a second account the asker granted admin to is not a
-- second admin.
CREATE TRIGGER recovery_link_request_second_admin BEFORE UPDATE OF status ON recovery_link_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status = 'approved' AND (
  NEW.decided_at >= OLD.open_until
  OR NOT EXISTS (
    SELECT 1 FROM operator_role
    WHERE user_id = NEW.decided_by AND role = 'admin' AND granted_at <= OLD.requested_at
      AND granted_by <> (SELECT handle FROM user WHERE id = OLD.requested_by)
  )
)
BEGIN SELECT RAISE(ABORT, 'recovery link request: approved by a second admin, within the day'); END;
CREATE TRIGGER recovery_link_request_kept BEFORE DELETE ON recovery_link_request
BEGIN SELECT RAISE(ABORT, 'recovery link request: requests are kept'); END;

-- 2. Every link from now on carries an approved request, still open, and is issued by
-- whoever asked, for the person asked about; issuing it marks the request issued. Links
-- issued before this migration keep a NULL request (they expire within the hour anyway).
ALTER TABLE recovery_link ADD COLUMN request_id TEXT REFERENCES recovery_link_request (id);
CREATE UNIQUE INDEX recovery_link_of_request ON recovery_link (request_id) WHERE request_id IS NOT NULL;
-- Its approver must still be an unlocked admin: an approval from someone since revoked or
-- locked (perhaps for this) carries nothing. Nor is a link made for an account that has
-- become an operator's since it was asked for.
CREATE TRIGGER recovery_link_as_approved BEFORE INSERT ON recovery_link
WHEN NEW.request_id IS NULL OR NOT EXISTS (
  SELECT 1 FROM recovery_link_request AS r
  JOIN operator_role AS approver ON approver.user_id = r.decided_by AND approver.role = 'admin'
  JOIN user AS approver_user ON approver_user.id = r.decided_by AND approver_user.locked_at IS NULL
  WHERE r.id = NEW.request_id AND r.status = 'approved' AND r.user_id = NEW.user_id AND r.requested_by = NEW.issued_by
    AND r.open_until > NEW.created_at
) OR EXISTS (SELECT 1 FROM operator_role WHERE user_id = NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'recovery link request: only an approved, open request is issued, once, by whoever asked'); END;
CREATE TRIGGER recovery_link_request_issued AFTER INSERT ON recovery_link
BEGIN UPDATE recovery_link_request SET status = 'issued', issued_at = NEW.created_at WHERE id = NEW.request_id; END;
-- A link is spent (used_at) and nothing else about it changes.
CREATE TRIGGER recovery_link_fixed BEFORE UPDATE OF token_hash, user_id, issued_by, created_at, expires_at, request_id ON recovery_link
BEGIN SELECT RAISE(ABORT, 'recovery link request: a link does not change'); END;
