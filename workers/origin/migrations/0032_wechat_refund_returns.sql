-- A WeChat Pay refund that failed for good (abnormal, closed, or refused after every attempt)
-- keeps its money in the clearing account. A finance operator may return that money to the
-- wallet of the order's owner (docs/decisions/048-failed-wechat-refunds.md): one row per
-- refund, written in the batch that moves the money (`tx_id`: clearing → wallet).
CREATE TABLE wechat_refund_return (
  out_refund_no TEXT PRIMARY KEY REFERENCES wechat_refund (out_refund_no),
  tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  user_id TEXT NOT NULL REFERENCES user (id),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  returned_by TEXT NOT NULL REFERENCES user (id),
  returned_at INTEGER NOT NULL,
  -- WeChat Pay reporting the refund done after all (an operator processed it at the merchant
  -- platform): recorded and reported, never booked, since its money already went to the wallet.
  late_success_at INTEGER
) STRICT;

-- Only a refund that failed is returned, whatever ran meanwhile (a late success, a retry).
CREATE TRIGGER wechat_refund_return_failed_only BEFORE INSERT ON wechat_refund_return
WHEN (SELECT status FROM wechat_refund WHERE out_refund_no = NEW.out_refund_no) IS NOT 'abnormal'
  AND (SELECT status FROM wechat_refund WHERE out_refund_no = NEW.out_refund_no) IS NOT 'closed'
  AND (SELECT status FROM wechat_refund WHERE out_refund_no = NEW.out_refund_no) IS NOT 'refused'
BEGIN SELECT RAISE(ABORT, 'refund_return: the refund has not failed'); END;

-- A returned refund's state is final: nothing WeChat Pay says later moves its money again.
CREATE TRIGGER wechat_refund_returned_final BEFORE UPDATE OF status ON wechat_refund
WHEN EXISTS (SELECT 1 FROM wechat_refund_return WHERE out_refund_no = OLD.out_refund_no)
BEGIN SELECT RAISE(ABORT, 'refund: a refund returned to a wallet does not change'); END;

CREATE TRIGGER wechat_refund_return_fixed BEFORE UPDATE ON wechat_refund_return
WHEN NEW.out_refund_no <> OLD.out_refund_no OR NEW.tx_id <> OLD.tx_id OR NEW.user_id <> OLD.user_id
  OR NEW.returned_by <> OLD.returned_by OR NEW.returned_at <> OLD.returned_at OR NEW.reason <> OLD.reason
BEGIN SELECT RAISE(ABORT, 'refund_return: a return does not change'); END;

-- The overview counts refunds that need a hand: failed, or parked (no next attempt while due
-- or processing: WeChat Pay reported another amount).
CREATE INDEX wechat_refund_needs_a_hand ON wechat_refund (updated_at)
WHERE status IN ('abnormal', 'closed', 'refused') OR (status IN ('due', 'processing') AND next_attempt_at IS NULL);
