-- A role that raises someone's rights needs a second admin
-- (docs/decisions/063-role-raises-need-a-second-admin.md).
--
-- One admin alone could make a second account of theirs an admin (or a finance operator),
-- and that account would then be "another operator" for every maker-checker: refunds, code
-- batches, recovery links. Now a raise is asked for by one admin and granted by another's
-- approval; lowering a role, or taking it away, stays one admin's act.

-- 1. The requests (their rules below). Each is open for a day.
CREATE TABLE role_request (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  role TEXT NOT NULL CHECK (role IN ('support', 'finance', 'admin')),
  -- The role held when it was asked for; the approval grants only over that same role.
  role_before TEXT CHECK (role_before IS NULL OR role_before IN ('support', 'finance')),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  status TEXT NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected')),
  requested_by TEXT NOT NULL REFERENCES user (id),
  requested_at INTEGER NOT NULL,
  open_until INTEGER NOT NULL,
  decided_by TEXT REFERENCES user (id),
  decided_at INTEGER,
  decision_note TEXT CHECK (decision_note IS NULL OR length(decision_note) BETWEEN 1 AND 500),
  CHECK ((status = 'awaiting_approval') = (decided_by IS NULL)),
  CHECK ((decided_by IS NULL) = (decided_at IS NULL)),
  CHECK (status <> 'rejected' OR decision_note IS NOT NULL),
  CHECK (open_until - requested_at BETWEEN 1 AND 86400000),
  -- Only a raise is asked for: the role asked is above the one held.
  CHECK (CASE role WHEN 'support' THEN 1 WHEN 'finance' THEN 2 ELSE 3 END
         > CASE role_before WHEN 'support' THEN 1 WHEN 'finance' THEN 2 ELSE 0 END),
  -- Nobody asks for their own raise, and nobody decides on what they asked for or on their own.
  CHECK (requested_by <> user_id),
  CHECK (decided_by IS NULL OR (decided_by <> requested_by AND decided_by <> user_id))
) STRICT;
CREATE INDEX role_request_requested ON role_request (requested_at, id);

-- 2. Who made whom an operator, for good: one row each time an admin's asking gave someone a
-- role or a higher one (the command line's grants name nobody). Lowering a role or taking it
-- away leaves the rows: a link once made is never erased, so an admin cannot unmake it by
-- stepping down or by revoking the account in between. Each approval is in it once.
CREATE TABLE operator_grant (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES user (id),
  granter_id TEXT NOT NULL REFERENCES user (id),
  role TEXT NOT NULL CHECK (role IN ('support', 'finance', 'admin')),
  at INTEGER NOT NULL,
  -- The approved request that gave it; NULL for the grants made before this migration.
  request_id TEXT REFERENCES role_request (id)
) STRICT;
CREATE INDEX operator_grant_user ON operator_grant (user_id);
CREATE UNIQUE INDEX operator_grant_of_request ON operator_grant (request_id) WHERE request_id IS NOT NULL;
CREATE TRIGGER operator_grant_no_update BEFORE UPDATE ON operator_grant
BEGIN SELECT RAISE(ABORT, 'operator grant: the history of grants is append-only'); END;
CREATE TRIGGER operator_grant_no_delete BEFORE DELETE ON operator_grant
BEGIN SELECT RAISE(ABORT, 'operator grant: the history of grants is append-only'); END;
-- INSERT OR REPLACE deletes the row it replaces without the delete trigger: refused before.
CREATE TRIGGER operator_grant_no_replace BEFORE INSERT ON operator_grant
WHEN EXISTS (SELECT 1 FROM operator_grant WHERE id = NEW.id OR request_id = NEW.request_id)
BEGIN SELECT RAISE(ABORT, 'operator grant: the history of grants is append-only'); END;
-- The grants made before: every raise the audit trail holds (it is append-only, and names
-- who asked), and whoever each role as it stands names as its granter. The live column alone
-- would miss a link the old code let be rewritten: a role granted again, an account stepping
-- down, or lowered by another admin.
INSERT INTO operator_grant (user_id, granter_id, role, at)
SELECT audit_log.object_id, audit_log.actor_id, json_extract(audit_log.after, '$.role'), audit_log.at
FROM audit_log
WHERE audit_log.action = 'operator.grant' AND audit_log.actor_kind = 'operator' AND audit_log.object_type = 'user'
  AND audit_log.actor_id IS NOT NULL AND json_extract(audit_log.after, '$.role') IN ('support', 'finance', 'admin')
  AND CASE json_extract(audit_log.after, '$.role') WHEN 'support' THEN 1 WHEN 'finance' THEN 2 ELSE 3 END
      > CASE json_extract(audit_log.before, '$.role') WHEN 'support' THEN 1 WHEN 'finance' THEN 2 WHEN 'admin' THEN 3 ELSE 0 END
  AND EXISTS (SELECT 1 FROM user WHERE user.id = audit_log.object_id)
  AND EXISTS (SELECT 1 FROM user WHERE user.id = audit_log.actor_id)
UNION
SELECT operator_role.user_id, granter.id, operator_role.role, operator_role.granted_at
FROM operator_role JOIN user AS granter ON granter.handle = operator_role.granted_by
WHERE operator_role.granted_by <> 'cli';

-- Everyone up the chain of grants from each operator, past or present. Two people linked this
-- way are not each other's second operator, whichever of them asks. UNION over the pairs
-- ends on a cycle (A made B, who later made A).
CREATE VIEW operator_lineage AS
WITH RECURSIVE lineage (user_id, ancestor_id) AS (
  SELECT user_id, granter_id FROM operator_grant
  UNION
  SELECT lineage.user_id, operator_grant.granter_id
  FROM lineage JOIN operator_grant ON operator_grant.user_id = lineage.ancestor_id
)
SELECT user_id, ancestor_id FROM lineage;
-- The same read both ways: whether one operator is up the other's chain, or the other up theirs.
CREATE VIEW operators_linked AS
SELECT user_id AS operator_id, ancestor_id AS other_id FROM operator_lineage
UNION
SELECT ancestor_id, user_id FROM operator_lineage;

-- The command line writes granted_by 'cli': no account may hold that handle.
CREATE TRIGGER user_handle_not_cli BEFORE INSERT ON user WHEN NEW.handle = 'cli'
BEGIN SELECT RAISE(ABORT, 'user: the handle cli is kept for the command line'); END;
CREATE TRIGGER user_handle_stays_not_cli BEFORE UPDATE OF handle ON user WHEN NEW.handle = 'cli'
BEGIN SELECT RAISE(ABORT, 'user: the handle cli is kept for the command line'); END;

-- 3. The requests' rules.

-- A request starts awaiting a decision, asked by an unlocked admin, over the role the person
-- holds; it moves only forward, awaiting → approved or rejected, and what was asked and who
-- decided never change. No request is deleted.
CREATE TRIGGER role_request_awaits BEFORE INSERT ON role_request
WHEN NEW.status <> 'awaiting_approval' OR NEW.decision_note IS NOT NULL
  OR NOT EXISTS (
    SELECT 1 FROM operator_role JOIN user ON user.id = operator_role.user_id
    WHERE operator_role.user_id = NEW.requested_by AND operator_role.role = 'admin' AND user.locked_at IS NULL
  )
  OR NEW.role_before IS NOT (SELECT role FROM operator_role WHERE user_id = NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'role request: asked by an admin, over the role held, awaiting a decision'); END;
CREATE TRIGGER role_request_forward BEFORE UPDATE ON role_request
WHEN NOT (OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected'))
  OR NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.role <> OLD.role OR NEW.role_before IS NOT OLD.role_before
  OR NEW.reason <> OLD.reason OR NEW.requested_by <> OLD.requested_by OR NEW.requested_at <> OLD.requested_at
  OR NEW.open_until <> OLD.open_until
BEGIN SELECT RAISE(ABORT, 'role request: a decided request does not change'); END;
-- A decision comes from a second admin: one since before the request was made, whom no chain
-- of grants links to the asker, either way. An approval also comes within the day, while the
-- asker is still an unlocked admin and the person still holds the role they held when asked.
CREATE TRIGGER role_request_second_admin BEFORE UPDATE OF status ON role_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected') AND (
  NOT EXISTS (
    SELECT 1 FROM operator_role WHERE user_id = NEW.decided_by AND role = 'admin' AND granted_at <= OLD.requested_at
  )
  OR EXISTS (
    SELECT 1 FROM operators_linked WHERE operator_id = NEW.decided_by AND other_id = OLD.requested_by
  )
)
BEGIN SELECT RAISE(ABORT, 'role request: decided by a second admin'); END;
CREATE TRIGGER role_request_approval_stands BEFORE UPDATE OF status ON role_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status = 'approved' AND (
  NEW.decided_at >= OLD.open_until
  OR NOT EXISTS (
    SELECT 1 FROM operator_role JOIN user ON user.id = operator_role.user_id
    WHERE operator_role.user_id = OLD.requested_by AND operator_role.role = 'admin' AND user.locked_at IS NULL
  )
  OR OLD.role_before IS NOT (SELECT role FROM operator_role WHERE user_id = OLD.user_id)
)
BEGIN SELECT RAISE(ABORT, 'role request: approved within the day, while the asker is an admin, over the role held'); END;
CREATE TRIGGER role_request_kept BEFORE DELETE ON role_request
BEGIN SELECT RAISE(ABORT, 'role request: requests are kept'); END;

-- 4. A role that raises its holder's rights is granted only by the approval of a request for
-- it, in the approval's batch, in the asker's name. The command line (`npm run operator`,
-- granted_by 'cli') is the break-glass tool and stays outside this rule, as it is outside
-- the rule that an admin remains (docs/decisions/012-operators-and-audit.md).
ALTER TABLE operator_role ADD COLUMN request_id TEXT REFERENCES role_request (id);
CREATE TRIGGER operator_role_new_as_approved BEFORE INSERT ON operator_role
WHEN NEW.granted_by <> 'cli' AND NOT EXISTS (
  SELECT 1 FROM role_request AS r JOIN user AS asker ON asker.id = r.requested_by
  WHERE r.id = NEW.request_id AND r.status = 'approved' AND r.user_id = NEW.user_id AND r.role = NEW.role
    AND r.role_before IS NULL AND r.decided_at = NEW.granted_at AND asker.handle = NEW.granted_by
)
BEGIN SELECT RAISE(ABORT, 'role request: a role is granted by a second admin''s approval'); END;
CREATE TRIGGER operator_role_raised_as_approved BEFORE UPDATE ON operator_role
WHEN NEW.granted_by <> 'cli'
  AND CASE NEW.role WHEN 'support' THEN 1 WHEN 'finance' THEN 2 ELSE 3 END
      > CASE OLD.role WHEN 'support' THEN 1 WHEN 'finance' THEN 2 ELSE 3 END
  AND NOT EXISTS (
    SELECT 1 FROM role_request AS r JOIN user AS asker ON asker.id = r.requested_by
    WHERE r.id = NEW.request_id AND r.status = 'approved' AND r.user_id = NEW.user_id AND r.role = NEW.role
      AND r.role_before = OLD.role AND r.decided_at = NEW.granted_at AND asker.handle = NEW.granted_by
  )
BEGIN SELECT RAISE(ABORT, 'role request: a role is granted by a second admin''s approval'); END;
-- A role kept is not granted again: who granted it (which the second-admin rules read) is not
-- rewritten but by a change of role.
CREATE TRIGGER operator_role_not_granted_again BEFORE UPDATE ON operator_role
WHEN NEW.granted_by <> 'cli' AND NEW.role = OLD.role
  AND (NEW.granted_by <> OLD.granted_by OR NEW.granted_at <> OLD.granted_at OR NEW.request_id IS NOT OLD.request_id)
BEGIN SELECT RAISE(ABORT, 'role request: a role kept is not granted again'); END;
-- The command line grants without a request, so nothing it writes names an approver.
CREATE TRIGGER operator_role_cli_new_unapproved BEFORE INSERT ON operator_role
WHEN NEW.granted_by = 'cli' AND NEW.request_id IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'role request: the command line grants without a request'); END;
CREATE TRIGGER operator_role_cli_unapproved BEFORE UPDATE ON operator_role
WHEN NEW.granted_by = 'cli' AND NEW.request_id IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'role request: the command line grants without a request'); END;
-- Each approved raise joins the history, with whoever asked for it as its granter (read from
-- the request, not from a handle). An approval used a second time is refused there.
CREATE TRIGGER operator_role_new_recorded AFTER INSERT ON operator_role
WHEN NEW.request_id IS NOT NULL
BEGIN
  INSERT INTO operator_grant (user_id, granter_id, role, at, request_id)
  SELECT NEW.user_id, requested_by, NEW.role, NEW.granted_at, id FROM role_request WHERE id = NEW.request_id;
END;
CREATE TRIGGER operator_role_raise_recorded AFTER UPDATE ON operator_role
WHEN NEW.request_id IS NOT NULL AND NEW.request_id IS NOT OLD.request_id
BEGIN
  INSERT INTO operator_grant (user_id, granter_id, role, at, request_id)
  SELECT NEW.user_id, requested_by, NEW.role, NEW.granted_at, id FROM role_request WHERE id = NEW.request_id;
END;
-- A role stays its holder's: it is not moved to another account.
CREATE TRIGGER operator_role_holder_fixed BEFORE UPDATE OF user_id ON operator_role
WHEN NEW.user_id <> OLD.user_id
BEGIN SELECT RAISE(ABORT, 'role request: a role is not moved to another account'); END;

-- 5. Recovery links (migration 0040) take the same second admin: no chain of grants links the
-- approver to the asker, either way.
DROP TRIGGER recovery_link_request_second_admin;
CREATE TRIGGER recovery_link_request_second_admin BEFORE UPDATE OF status ON recovery_link_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status = 'approved' AND (
  NEW.decided_at >= OLD.open_until
  OR NOT EXISTS (
    SELECT 1 FROM operator_role WHERE user_id = NEW.decided_by AND role = 'admin' AND granted_at <= OLD.requested_at
  )
  OR EXISTS (
    SELECT 1 FROM operators_linked WHERE operator_id = NEW.decided_by AND other_id = OLD.requested_by
  )
)
BEGIN SELECT RAISE(ABORT, 'recovery link request: approved by a second admin, within the day'); END;
