-- WeChat Pay (issue #5; docs/decisions/004-wechat-pay.md): payments made at WeChat Pay, the
-- notifications it sends, and the automatic refunds of payments no order can take.
PRAGMA defer_foreign_keys = on;

-- 1. Journal kinds for money that arrives from WeChat Pay:
--    'recharge'          WeChat Pay → a wallet (a recharge order paid);
--    'payment_to_refund' WeChat Pay → the WeChat clearing account (a payment for an order that
--                        was closed or already paid: held there until its refund succeeds);
--    'refund'            (already allowed) the clearing account → WeChat Pay (the refund done).
--    A task budget paid with WeChat Pay is an 'escrow_hold' from the world into the held bucket.
-- SQLite cannot change a CHECK, so journal_tx is rebuilt. Its children (entry, tx_seal, …)
-- name it by name and keep pointing at the new table; dropping the old one counts their rows
-- as deferred foreign-key violations, and inserting the same ids into the new table resolves
-- them again before the migration commits (a rename of a copy would not: foreign keys are
-- always on in D1, so a rename rewrites the children's references).
DROP TRIGGER tx_immutable_update;
DROP TRIGGER tx_immutable_delete;
CREATE TABLE journal_tx_copy (id TEXT NOT NULL, kind TEXT NOT NULL, created_at INTEGER NOT NULL);
INSERT INTO journal_tx_copy (id, kind, created_at) SELECT id, kind, created_at FROM journal_tx;
DROP TABLE journal_tx;
CREATE TABLE journal_tx (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('code_redemption', 'transfer', 'escrow_hold', 'escrow_capture', 'escrow_release', 'refund', 'recharge', 'payment_to_refund')),
  created_at INTEGER NOT NULL
) STRICT;
INSERT INTO journal_tx (id, kind, created_at) SELECT id, kind, created_at FROM journal_tx_copy;
DROP TABLE journal_tx_copy;
CREATE TRIGGER tx_immutable_update BEFORE UPDATE ON journal_tx BEGIN SELECT RAISE(ABORT, 'ledger: transactions are immutable'); END;
CREATE TRIGGER tx_immutable_delete BEFORE DELETE ON journal_tx BEGIN SELECT RAISE(ABORT, 'ledger: transactions are immutable'); END;

-- Money of payments waiting for their refund (never negative: it is an escrow account).
INSERT INTO account (id, owner_id, kind) VALUES ('acc_wechat_clearing', NULL, 'escrow');

-- 2. A WeChat Pay payment is stored (pending, with its out_trade_no) before WeChat Pay is asked.
ALTER TABLE payment ADD COLUMN flow TEXT CHECK (flow IS NULL OR flow IN ('native', 'h5', 'jsapi'));
ALTER TABLE payment ADD COLUMN openid TEXT CHECK (openid IS NULL OR length(openid) BETWEEN 1 AND 128);
-- H5's payer_client_ip, kept so that a repeated request sends identical parameters.
ALTER TABLE payment ADD COLUMN client_ip TEXT CHECK (client_ip IS NULL OR length(client_ip) BETWEEN 2 AND 45);
ALTER TABLE payment ADD COLUMN transaction_id TEXT CHECK (transaction_id IS NULL OR length(transaction_id) <= 32);
-- What we know of the order at WeChat Pay: creating (stored, not confirmed), open, paid,
-- closed, absent (WeChat Pay never had it), refused (WeChat Pay refused to create it),
-- mismatch (its amount is not ours: an operator looks).
ALTER TABLE payment ADD COLUMN remote_state TEXT CHECK (remote_state IS NULL OR remote_state IN ('creating', 'open', 'paid', 'closed', 'absent', 'refused', 'mismatch'));
-- When the cron asks WeChat Pay about a pending payment next (query, or close), and how often it did.
ALTER TABLE payment ADD COLUMN next_check_at INTEGER;
ALTER TABLE payment ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;

-- One WeChat Pay order waiting per Paydesk order: a repeated request reuses it.
CREATE UNIQUE INDEX payment_one_pending_wechat ON payment (order_id) WHERE method = 'wechat' AND status = 'pending';
CREATE INDEX payment_wechat_due ON payment (next_check_at) WHERE method = 'wechat' AND status = 'pending';

-- A payment's outcome is final: pending → succeeded | failed | refunded, and failed → refunded
-- (a success that arrives for a payment given up). Setting the status of a finished payment,
-- even to the same value, aborts the batch: so a second settlement of the same payment fails
-- as a whole, ledger entries included.
CREATE TRIGGER payment_final BEFORE UPDATE OF status ON payment
WHEN OLD.status <> 'pending' AND NOT (OLD.status = 'failed' AND NEW.status = 'refunded')
BEGIN SELECT RAISE(ABORT, 'payment: a settled payment does not change'); END;

-- A WeChat Pay payment succeeds by UPDATE: only for an order still pending (cf. the INSERT guard of 0006).
CREATE TRIGGER payment_succeeds_for_payable_order BEFORE UPDATE OF status ON payment
WHEN NEW.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM orders WHERE id = NEW.order_id AND status = 'pending')
BEGIN SELECT RAISE(ABORT, 'payment: the order is not payable'); END;

-- An order that closes (cancel, expiry) or is paid another way leaves its WeChat Pay order
-- open at WeChat Pay: the next cron run closes it there (or refunds a payment made meanwhile).
CREATE TRIGGER order_done_checks_wechat AFTER UPDATE OF status ON orders
WHEN NEW.status <> 'pending'
BEGIN
  UPDATE payment SET next_check_at = coalesce(NEW.paid_at, NEW.closed_at)
  WHERE order_id = NEW.id AND method = 'wechat' AND status = 'pending';
END;

-- 3. Every verified notification, stored before it is answered. WeChat Pay resends the same
-- notification (same id) until it is answered 2xx; each delivery is counted.
CREATE TABLE wechat_notification (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  event_type TEXT NOT NULL CHECK (length(event_type) <= 64),
  resource_type TEXT NOT NULL CHECK (length(resource_type) <= 32),
  out_trade_no TEXT,
  out_refund_no TEXT,
  -- The decrypted resource as WeChat Pay sent it.
  resource TEXT NOT NULL CHECK (length(resource) <= 16384),
  -- received (stored, not yet acted on), settled, refund_due, already_settled, ignored,
  -- unknown_order, amount_mismatch, refund_recorded, unknown_refund
  outcome TEXT NOT NULL DEFAULT 'received',
  deliveries INTEGER NOT NULL DEFAULT 1,
  first_received_at INTEGER NOT NULL,
  last_received_at INTEGER NOT NULL
) STRICT;
CREATE INDEX wechat_notification_trade ON wechat_notification (out_trade_no);

-- 4. The automatic refund of a payment no order could take (docs/rules-and-limits.md): one per payment,
-- its out_refund_no derived from the payment's out_trade_no, so retries refund once.
CREATE TABLE wechat_refund (
  out_refund_no TEXT PRIMARY KEY CHECK (length(out_refund_no) <= 64),
  payment_id TEXT NOT NULL UNIQUE REFERENCES payment (id),
  order_id TEXT NOT NULL REFERENCES orders (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL CHECK (reason IN ('order_closed', 'order_already_paid')),
  -- due (to request; retried), processing (accepted by WeChat Pay), succeeded, abnormal and
  -- closed (WeChat Pay's refund failed: an operator acts), refused (the request was refused)
  status TEXT NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'processing', 'succeeded', 'abnormal', 'closed', 'refused')),
  refund_id TEXT,
  -- Money in (WeChat Pay → clearing) when the refund was decided; out (clearing → WeChat Pay) when it succeeded.
  in_tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  out_tx_id TEXT UNIQUE REFERENCES journal_tx (id),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT CHECK (last_error IS NULL OR length(last_error) <= 500),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK ((status = 'succeeded') = (out_tx_id IS NOT NULL))
) STRICT;
CREATE INDEX wechat_refund_due ON wechat_refund (next_attempt_at) WHERE status IN ('due', 'processing');
CREATE INDEX wechat_refund_order ON wechat_refund (order_id);

-- A refund that succeeded stays so: its money left once.
CREATE TRIGGER wechat_refund_final BEFORE UPDATE OF status ON wechat_refund
WHEN OLD.status = 'succeeded'
BEGIN SELECT RAISE(ABORT, 'refund: a refund that succeeded does not change'); END;
