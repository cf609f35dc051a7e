-- Guards found missing in review.
PRAGMA defer_foreign_keys = on;

-- A code is redeemed only before its expiry, even by a request that checked just before.
CREATE TRIGGER redemption_before_expiry BEFORE INSERT ON code_redemption
WHEN (SELECT expires_at FROM prepaid_code WHERE code_hash = NEW.code_hash) <= NEW.at
BEGIN SELECT RAISE(ABORT, 'codes: the code has expired'); END;

-- A task whose budget order closes unpaid (cancelled or expired) can never open: cancel it.
CREATE TRIGGER budget_order_closed_cancels_task AFTER UPDATE OF status ON orders
WHEN NEW.status = 'closed' AND NEW.kind = 'task_budget'
BEGIN UPDATE task SET status = 'cancelled' WHERE order_id = NEW.id AND status = 'awaiting_payment'; END;
