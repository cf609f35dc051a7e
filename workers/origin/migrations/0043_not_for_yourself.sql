-- No operator moves money on their own order
-- (docs/decisions/065-no-refund-of-ones-own-order.md).
--
-- A failed refund's return to the wallet and a double payout's settlement already refused
-- the operator whose order it is, at the route (decisions 048 and 060). An operator's refund
-- did not: a finance operator could refund their own order within the threshold alone, or ask
-- past it and approve another's refund of their own. Now whoever asks for a refund, decides on
-- one, returns a failed one or settles one paid twice is not the order's owner, and the
-- database refuses it too. Rows written before stay as they are: these guard new ones.

CREATE TRIGGER refund_request_not_for_the_asker BEFORE INSERT ON refund_request
WHEN NEW.requested_by = (SELECT user_id FROM orders WHERE id = NEW.order_id)
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;

CREATE TRIGGER refund_request_not_for_the_decider BEFORE UPDATE OF status ON refund_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected')
  AND NEW.decided_by = (SELECT user_id FROM orders WHERE id = OLD.order_id)
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;

-- The order's owner, and the wallet the money goes back to, which the route takes from the order.
CREATE TRIGGER wechat_refund_return_not_for_yourself BEFORE INSERT ON wechat_refund_return
WHEN NEW.returned_by = NEW.user_id OR NEW.returned_by = (
  SELECT orders.user_id FROM wechat_refund JOIN orders ON orders.id = wechat_refund.order_id
  WHERE wechat_refund.out_refund_no = NEW.out_refund_no
)
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;

CREATE TRIGGER wechat_refund_settlement_not_for_yourself BEFORE INSERT ON wechat_refund_settlement
WHEN NEW.settled_by = (SELECT user_id FROM wechat_refund_return WHERE out_refund_no = NEW.out_refund_no) OR NEW.settled_by = (
  SELECT orders.user_id FROM wechat_refund JOIN orders ON orders.id = wechat_refund.order_id
  WHERE wechat_refund.out_refund_no = NEW.out_refund_no
)
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;
