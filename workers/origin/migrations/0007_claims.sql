-- Claims, proof and checks (docs/rules-and-limits.md). Every rule of the claim's life is a trigger,
-- so no request can take a slot that is not there or pay a reward twice.
PRAGMA defer_foreign_keys = on;

CREATE TABLE claim (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES task (id),
  worker_id TEXT NOT NULL REFERENCES user (id),
  status TEXT NOT NULL DEFAULT 'claimed' CHECK (status IN ('claimed', 'submitted', 'approved', 'rejected', 'lapsed')),
  -- Submit by: 24 hours after claiming, or the task's deadline if sooner.
  expires_at INTEGER NOT NULL,
  proof_text TEXT CHECK (proof_text IS NULL OR length(proof_text) BETWEEN 1 AND 2000),
  proof_url TEXT CHECK (proof_url IS NULL OR (proof_url LIKE 'https://%' AND length(proof_url) <= 2048)),
  reject_reason TEXT CHECK (reject_reason IS NULL OR length(reject_reason) BETWEEN 1 AND 500),
  created_at INTEGER NOT NULL,
  submitted_at INTEGER,
  decided_at INTEGER,
  -- One claim per user per task.
  UNIQUE (task_id, worker_id)
) STRICT;
CREATE INDEX claim_worker ON claim (worker_id, created_at DESC);
CREATE INDEX claim_status_expiry ON claim (status, expires_at);

CREATE TRIGGER claim_only_open_task_of_another BEFORE INSERT ON claim
WHEN NOT EXISTS (
  SELECT 1 FROM task WHERE id = NEW.task_id AND status = 'open' AND deadline > NEW.created_at AND poster_id <> NEW.worker_id
)
BEGIN SELECT RAISE(ABORT, 'claims: the task cannot be claimed'); END;

CREATE TRIGGER claim_takes_slot AFTER INSERT ON claim
BEGIN UPDATE task SET slots_taken = slots_taken + 1 WHERE id = NEW.task_id; END;

CREATE TRIGGER claim_moves_forward BEFORE UPDATE OF status ON claim
WHEN NOT (
  (OLD.status = 'claimed' AND NEW.status IN ('submitted', 'lapsed'))
  OR (OLD.status = 'submitted' AND NEW.status IN ('approved', 'rejected'))
)
BEGIN SELECT RAISE(ABORT, 'claims: that change of status is not allowed'); END;

CREATE TRIGGER claim_frees_slot AFTER UPDATE OF status ON claim
WHEN NEW.status IN ('rejected', 'lapsed')
BEGIN UPDATE task SET slots_taken = slots_taken - 1 WHERE id = NEW.task_id; END;

-- The reward's capture: its primary key pays a claim at most once, and only a submitted one.
CREATE TABLE claim_capture (
  claim_id TEXT PRIMARY KEY REFERENCES claim (id),
  tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  at INTEGER NOT NULL
) STRICT;

CREATE TRIGGER capture_only_submitted BEFORE INSERT ON claim_capture
WHEN (SELECT status FROM claim WHERE id = NEW.claim_id) IS NOT 'submitted'
BEGIN SELECT RAISE(ABORT, 'claims: only a submitted claim is approved'); END;

CREATE TRIGGER capture_approves AFTER INSERT ON claim_capture
BEGIN
  UPDATE claim SET status = 'approved', decided_at = NEW.at WHERE id = NEW.claim_id;
  UPDATE task SET escrow_remaining = escrow_remaining - NEW.amount WHERE id = (SELECT task_id FROM claim WHERE id = NEW.claim_id);
END;
