-- Parked WeChat Pay refunds, settled by what WeChat Pay says it did
-- (docs/decisions/070-parked-refunds-settled.md).
--
-- A refund WeChat Pay reported with another amount than asked is parked (migration 0032): its
-- money waits in the clearing account, and until now nothing moved it. A finance operator now
-- settles it, after asking WeChat Pay about it once more:
--   failed (ABNORMAL or CLOSED), whatever the amount: nothing reached the payer, and its money
--     goes back to the wallet of the order's owner, as any failed refund's does (a row of
--     wechat_refund_return);
--   done (SUCCESS) for another amount: what WeChat Pay paid out is booked as money out, and the
--     rest of the asked amount goes to that wallet; a payout above the asked amount is borne
--     by Paydesk (acc_paydesk_covered). One row of the table below, in the batch that books it
--     and marks the refund succeeded.
-- And a returned parked refund paid out later keeps the amount paid out (at the end).

-- A parked refund that WeChat Pay, asked again, reports failed may be returned too: the route
-- asks first, as it does for every return. A parked refund that is not failed still is not.
DROP TRIGGER wechat_refund_return_failed_only;
CREATE TRIGGER wechat_refund_return_failed_only BEFORE INSERT ON wechat_refund_return
WHEN NOT EXISTS (
  SELECT 1 FROM wechat_refund
  WHERE out_refund_no = NEW.out_refund_no AND status IN ('abnormal', 'closed', 'refused')
)
BEGIN SELECT RAISE(ABORT, 'refund_return: the refund has not failed'); END;

CREATE TABLE wechat_refund_other_amount (
  out_refund_no TEXT PRIMARY KEY REFERENCES wechat_refund (out_refund_no),
  -- What WeChat Pay reports it paid out, in fen.
  refunded INTEGER NOT NULL CHECK (refunded > 0),
  tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  -- The order's owner: the rest of the asked amount, if any, goes to their wallet.
  user_id TEXT NOT NULL REFERENCES user (id),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  settled_by TEXT NOT NULL REFERENCES user (id),
  settled_at INTEGER NOT NULL
) STRICT;

-- Only a parked refund that has not succeeded nor been returned, for another amount than asked.
CREATE TRIGGER wechat_refund_other_amount_parked_only BEFORE INSERT ON wechat_refund_other_amount
WHEN NOT EXISTS (
  SELECT 1 FROM wechat_refund
  WHERE out_refund_no = NEW.out_refund_no AND parked_at IS NOT NULL AND status <> 'succeeded' AND amount <> NEW.refunded
    AND NOT EXISTS (SELECT 1 FROM wechat_refund_return WHERE wechat_refund_return.out_refund_no = NEW.out_refund_no)
)
BEGIN SELECT RAISE(ABORT, 'refund_other_amount: the refund is not parked'); END;

-- The order's owner, never the operator (docs/decisions/065-no-refund-of-ones-own-order.md).
CREATE TRIGGER wechat_refund_other_amount_owner BEFORE INSERT ON wechat_refund_other_amount
WHEN NEW.user_id IS NOT (
  SELECT orders.user_id FROM wechat_refund JOIN orders ON orders.id = wechat_refund.order_id
  WHERE wechat_refund.out_refund_no = NEW.out_refund_no
)
BEGIN SELECT RAISE(ABORT, 'refund_other_amount: the order''s owner only'); END;
CREATE TRIGGER wechat_refund_other_amount_not_for_yourself BEFORE INSERT ON wechat_refund_other_amount
WHEN NEW.settled_by = NEW.user_id
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;

-- Kept as made, like the ledger.
CREATE TRIGGER wechat_refund_other_amount_fixed BEFORE UPDATE ON wechat_refund_other_amount
BEGIN SELECT RAISE(ABORT, 'refund_other_amount: a settlement does not change'); END;
CREATE TRIGGER wechat_refund_other_amount_kept BEFORE DELETE ON wechat_refund_other_amount
BEGIN SELECT RAISE(ABORT, 'refund_other_amount: settlements are kept'); END;

-- A parked refund returned to the wallet, then paid out at WeChat Pay's merchant platform, is
-- paid out for the amount WeChat Pay reports, which for a parked refund is likely not the one
-- asked. The late success keeps that amount (NULL: the asked amount, as before this), and the
-- settlement of the double payment (decision 060) books it.
ALTER TABLE wechat_refund_return ADD COLUMN late_success_amount INTEGER CHECK (late_success_amount IS NULL OR late_success_amount > 0);
CREATE TRIGGER wechat_refund_return_amount_fixed BEFORE UPDATE OF late_success_amount ON wechat_refund_return
WHEN OLD.late_success_at IS NOT NULL AND NEW.late_success_amount IS NOT OLD.late_success_amount
BEGIN SELECT RAISE(ABORT, 'refund_return: a return does not change'); END;
