-- What is left to refund of a payment counts what WeChat Pay paid out beyond a refund's asked
-- amount (docs/decisions/070-parked-refunds-settled.md, amended 2026-11-28).
--
-- A parked refund settled for a payout above the asked amount gave the person that payout:
-- Paydesk bore the difference, and WeChat Pay counts the whole payout against the payment.
-- Counting only the asked amount left room for a later refund that WeChat Pay would refuse,
-- and whose return to the wallet would give the person more than they paid.
--
-- One definition of what a payment gave back, for the trigger below and for the routes that
-- show and check what is left (refunds/refund-money.ts): the operators' refunds not rejected
-- (each reserves its amount from the moment it is asked), plus each payout beyond its ask.
-- A payout below its ask does not lower it: the rest of the ask went to the wallet.
CREATE VIEW payment_refunded AS
SELECT payment.id AS payment_id,
       (SELECT coalesce(sum(amount), 0) FROM refund_request
        WHERE refund_request.payment_id = payment.id AND refund_request.status <> 'rejected')
     + (SELECT coalesce(sum(other.refunded - wechat_refund.amount), 0)
        FROM wechat_refund_other_amount AS other JOIN wechat_refund USING (out_refund_no)
        WHERE wechat_refund.payment_id = payment.id AND other.refunded > wechat_refund.amount) AS refunded
FROM payment;

-- Never more than was paid, in total, whatever runs at once (migration 0019), now by that
-- definition.
DROP TRIGGER refund_within_payment;
CREATE TRIGGER refund_within_payment BEFORE INSERT ON refund_request
WHEN NOT EXISTS (SELECT 1 FROM payment WHERE id = NEW.payment_id AND order_id = NEW.order_id AND status = 'succeeded' AND method = NEW.method)
  OR (SELECT refunded FROM payment_refunded WHERE payment_id = NEW.payment_id) + NEW.amount
     > (SELECT amount FROM payment WHERE id = NEW.payment_id)
BEGIN SELECT RAISE(ABORT, 'refund_exceeds_payment'); END;
