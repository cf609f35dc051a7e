-- The back office (docs/decisions/012-operators-and-audit.md): Paydesk accounts holding an
-- operator role, and the audit trail, append-only like the ledger.
CREATE TABLE operator_role (
  user_id TEXT PRIMARY KEY REFERENCES user (id),
  role TEXT NOT NULL CHECK (role IN ('support', 'finance', 'admin')),
  granted_by TEXT NOT NULL CHECK (length(granted_by) BETWEEN 1 AND 80),
  granted_at INTEGER NOT NULL
) STRICT;

-- One row per operator or automation action, written in the batch of its effect.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('operator', 'automation', 'cli')),
  -- The operator's user id; null for automation (ADMIN_TOKEN) and the command line.
  actor_id TEXT,
  actor_role TEXT CHECK (actor_role IS NULL OR actor_role IN ('support', 'finance', 'admin')),
  action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
  object_type TEXT NOT NULL CHECK (length(object_type) BETWEEN 1 AND 32),
  object_id TEXT NOT NULL CHECK (length(object_id) BETWEEN 1 AND 128),
  before TEXT CHECK (before IS NULL OR json_valid(before)),
  after TEXT CHECK (after IS NULL OR json_valid(after)),
  reason TEXT CHECK (reason IS NULL OR length(reason) <= 500),
  request_id TEXT CHECK (request_id IS NULL OR length(request_id) <= 128)
) STRICT;
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_object ON audit_log (object_type, object_id);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit: rows are append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit: rows are append-only');
END;
