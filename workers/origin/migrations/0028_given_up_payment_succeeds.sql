-- A payment given up can still succeed for its order (found in review, session 22). When two
-- requests start WeChat Pay for one order at once, the second may ask WeChat Pay to close the
-- first's payment before the first's create has landed: WeChat Pay answers ORDER_NOT_EXIST,
-- the payment is marked failed, and then the create lands and the payer pays it. Its success
-- then pays the order while the order is still pending (it was refunded only once the order
-- could not take it any more, and with the order pending that batch refused forever).
-- The outcome stays final otherwise: pending → succeeded | failed | refunded, and
-- failed → succeeded (the order still pending: trigger payment_succeeds_for_payable_order)
-- | refunded.
DROP TRIGGER payment_final;

CREATE TRIGGER payment_final BEFORE UPDATE OF status ON payment
WHEN OLD.status <> 'pending' AND NOT (OLD.status = 'failed' AND NEW.status IN ('succeeded', 'refunded'))
BEGIN SELECT RAISE(ABORT, 'payment: a settled payment does not change'); END;
