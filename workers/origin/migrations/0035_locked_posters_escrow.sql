-- A locked poster's escrow stays where it is (docs/decisions/013-account-locks.md, amended
-- 2026-11-27): nothing else moves, and a task's budget paid out to workers is the poster's
-- money moving. While the poster is locked their open tasks take no new claim, and no
-- submission of theirs is paid, neither by the poster (the door refuses a locked account's
-- writes) nor automatically after 72 hours (the rule passes them over until the unlock).
-- These triggers close the gap between each door's check and its batch, as in 0017.
CREATE TRIGGER claim_poster_not_locked BEFORE INSERT ON claim
WHEN EXISTS (SELECT 1 FROM task JOIN user ON user.id = task.poster_id WHERE task.id = NEW.task_id AND user.locked_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'account_locked: the task cannot be claimed while its poster is locked'); END;

CREATE TRIGGER capture_poster_not_locked BEFORE INSERT ON claim_capture
WHEN EXISTS (
  SELECT 1 FROM claim JOIN task ON task.id = claim.task_id JOIN user ON user.id = task.poster_id
  WHERE claim.id = NEW.claim_id AND user.locked_at IS NOT NULL
)
BEGIN SELECT RAISE(ABORT, 'account_locked: a locked poster''s escrow pays no reward'); END;
