-- A worker may give up a claim not yet submitted (docs/decisions/050-giving-up-a-claim.md): the
-- claim ends as a lapse does, freeing its slot (trigger `claim_frees_slot`), and says it was
-- given up. It stays, so the one claim per user per task still holds.
ALTER TABLE claim ADD COLUMN withdrawn_at INTEGER CHECK (withdrawn_at IS NULL OR status = 'lapsed');

-- Only the move from claimed to lapsed gives a claim up, and a claim given up stays so.
CREATE TRIGGER claim_withdrawn_once BEFORE UPDATE OF withdrawn_at ON claim
WHEN OLD.withdrawn_at IS NOT NULL OR OLD.status <> 'claimed' OR NEW.withdrawn_at IS NULL OR NEW.status <> 'lapsed'
BEGIN SELECT RAISE(ABORT, 'claims: only a claim not yet submitted is given up, once'); END;
CREATE TRIGGER claim_not_born_withdrawn BEFORE INSERT ON claim
WHEN NEW.withdrawn_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'claims: only a claim not yet submitted is given up, once'); END;
