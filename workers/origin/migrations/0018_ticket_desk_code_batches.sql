-- The back office's tickets desk and code batches (docs/decisions/016-ticket-desk-and-code-batches.md).
PRAGMA defer_foreign_keys = on;

-- The operator working a ticket; null while nobody has taken it.
ALTER TABLE ticket ADD COLUMN assignee_id TEXT REFERENCES user (id);
CREATE INDEX ticket_assignee ON ticket (assignee_id, status, updated_at);

-- A batch of prepaid codes, as issued: `prepaid_code.batch` names it. Issued by an operator
-- (their user id), or by automation (ADMIN_TOKEN) or the command line (null). Voiding takes
-- every code not yet redeemed out of use; `voided_count` is how many that was, fixed at the
-- void (the ledger check holds it to the codes: docs/decisions/016-ticket-desk-and-code-batches.md).
CREATE TABLE code_batch (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  value INTEGER NOT NULL CHECK (value > 0 AND value <= 100000000),
  count INTEGER NOT NULL CHECK (count >= 1),
  note TEXT CHECK (note IS NULL OR length(note) BETWEEN 1 AND 200),
  expires_at INTEGER NOT NULL,
  issued_by TEXT REFERENCES user (id),
  issued_at INTEGER NOT NULL,
  voided_at INTEGER,
  voided_by TEXT REFERENCES user (id),
  voided_count INTEGER CHECK (voided_count IS NULL OR voided_count >= 0),
  CHECK ((voided_at IS NULL) = (voided_count IS NULL)),
  CHECK (voided_by IS NULL OR voided_at IS NOT NULL)
) STRICT;
CREATE INDEX code_batch_issued ON code_batch (issued_at, id);
CREATE INDEX prepaid_code_batch ON prepaid_code (batch);

-- Every batch issued so far, from its codes (each was issued with one value and one expiry).
INSERT INTO code_batch (id, value, count, note, expires_at, issued_by, issued_at)
SELECT batch, min(value), count(*), NULL, min(expires_at), NULL, min(created_at) FROM prepaid_code GROUP BY batch;

-- A code belongs to a batch that was issued and is not voided.
CREATE TRIGGER prepaid_code_in_open_batch BEFORE INSERT ON prepaid_code
WHEN NOT EXISTS (SELECT 1 FROM code_batch WHERE id = NEW.batch AND voided_at IS NULL)
BEGIN SELECT RAISE(ABORT, 'codes: a code belongs to an issued batch that is not voided'); END;

-- A voided code is never redeemed, even by a request that checked just before the void:
-- whichever of the two batches D1 runs first wins, the other rolls back.
CREATE TRIGGER redemption_not_voided BEFORE INSERT ON code_redemption
WHEN EXISTS (
  SELECT 1 FROM prepaid_code JOIN code_batch ON code_batch.id = prepaid_code.batch
  WHERE prepaid_code.code_hash = NEW.code_hash AND code_batch.voided_at IS NOT NULL
)
BEGIN SELECT RAISE(ABORT, 'codes: the code was voided'); END;

-- What a batch was issued as never changes, and a void is never undone.
CREATE TRIGGER code_batch_issue_fixed BEFORE UPDATE OF id, value, count, note, expires_at, issued_by, issued_at ON code_batch
BEGIN SELECT RAISE(ABORT, 'codes: a batch is issued once'); END;
CREATE TRIGGER code_batch_void_final BEFORE UPDATE OF voided_at, voided_by, voided_count ON code_batch
WHEN OLD.voided_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'codes: a voided batch stays voided'); END;
