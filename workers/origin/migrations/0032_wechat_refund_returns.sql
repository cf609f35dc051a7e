-- WeChat Pay refunds that need a hand (docs/decisions/048-failed-wechat-refunds.md).
--
-- 1. A refund WeChat Pay reported with another amount than asked is parked: not asked about
-- again, never returned to a wallet, until an operator has looked at the merchant platform.
-- Until now only its missing next attempt said so, which a failed refund shares.
ALTER TABLE wechat_refund ADD COLUMN parked_at INTEGER;
UPDATE wechat_refund SET parked_at = updated_at
WHERE status IN ('due', 'processing') AND next_attempt_at IS NULL;

-- 2. A refund that failed for good (abnormal, closed, or refused after every attempt) keeps
-- its money in the clearing account. A finance operator may return that money to the wallet
-- of the order's owner: one row per refund, written in the batch that moves the money
-- (`tx_id`: clearing → wallet).
CREATE TABLE wechat_refund_return (
  out_refund_no TEXT PRIMARY KEY REFERENCES wechat_refund (out_refund_no),
  tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  user_id TEXT NOT NULL REFERENCES user (id),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  returned_by TEXT NOT NULL REFERENCES user (id),
  returned_at INTEGER NOT NULL,
  -- WeChat Pay reporting the refund done after all (someone processed it at the merchant
  -- platform): recorded and reported, never booked, since its money already went to the wallet.
  late_success_at INTEGER
) STRICT;

-- Only a refund that failed, and is not parked, is returned, whatever ran meanwhile.
CREATE TRIGGER wechat_refund_return_failed_only BEFORE INSERT ON wechat_refund_return
WHEN NOT EXISTS (
  SELECT 1 FROM wechat_refund
  WHERE out_refund_no = NEW.out_refund_no AND status IN ('abnormal', 'closed', 'refused') AND parked_at IS NULL
)
BEGIN SELECT RAISE(ABORT, 'refund_return: the refund has not failed'); END;

-- A returned refund's state is final: nothing WeChat Pay says later moves its money again.
CREATE TRIGGER wechat_refund_returned_final BEFORE UPDATE OF status ON wechat_refund
WHEN EXISTS (SELECT 1 FROM wechat_refund_return WHERE out_refund_no = OLD.out_refund_no)
BEGIN SELECT RAISE(ABORT, 'refund: a refund returned to a wallet does not change'); END;

-- A return is kept as made; a late success, once recorded, stays.
CREATE TRIGGER wechat_refund_return_fixed BEFORE UPDATE ON wechat_refund_return
WHEN NEW.out_refund_no IS NOT OLD.out_refund_no OR NEW.tx_id IS NOT OLD.tx_id OR NEW.user_id IS NOT OLD.user_id
  OR NEW.returned_by IS NOT OLD.returned_by OR NEW.returned_at IS NOT OLD.returned_at OR NEW.reason IS NOT OLD.reason
  OR (OLD.late_success_at IS NOT NULL AND NEW.late_success_at IS NOT OLD.late_success_at)
BEGIN SELECT RAISE(ABORT, 'refund_return: a return does not change'); END;
CREATE TRIGGER wechat_refund_return_kept BEFORE DELETE ON wechat_refund_return
BEGIN SELECT RAISE(ABORT, 'refund_return: returns are kept'); END;

-- The refunds that need a hand (the back office's list and the overview's count): failed or
-- parked. A failed one returned to a wallet drops out unless WeChat Pay paid it out too.
CREATE INDEX wechat_refund_needs_a_hand ON wechat_refund (updated_at)
WHERE status IN ('abnormal', 'closed', 'refused') OR parked_at IS NOT NULL;
