-- Refunds an operator makes (docs/decisions/015-operator-refunds.md): full or partial, never
-- more than was paid in total, above a threshold only once a second operator approves.
PRAGMA defer_foreign_keys = on;

-- 1. One row per refund asked for. `approved` means its money has moved (`tx_id`): back
-- into the wallet (a wallet payment), or into the WeChat Pay clearing account on its way
-- back to the payer (a WeChat Pay payment; its progress is its `wechat_refund`).
CREATE TABLE refund_request (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id),
  payment_id TEXT NOT NULL REFERENCES payment (id),
  method TEXT NOT NULL CHECK (method IN ('wallet', 'wechat')),
  amount INTEGER NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  status TEXT NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected')),
  -- Where the money came from when it moved: the wallet's available balance, or the task's
  -- escrow of slots no one has claimed (a task budget whose task is still open).
  source TEXT CHECK (source IN ('wallet', 'task_escrow')),
  requested_by TEXT NOT NULL REFERENCES user (id),
  requested_at INTEGER NOT NULL,
  -- The second operator who approved or rejected it; NULL for a refund within the threshold.
  decided_by TEXT REFERENCES user (id),
  decided_at INTEGER,
  decision_note TEXT CHECK (decision_note IS NULL OR length(decision_note) <= 500),
  tx_id TEXT UNIQUE REFERENCES journal_tx (id),
  CHECK ((status = 'approved') = (tx_id IS NOT NULL AND source IS NOT NULL)),
  -- Maker-checker: whoever decides is not whoever asked.
  CHECK (decided_by IS NULL OR decided_by <> requested_by)
) STRICT;
CREATE INDEX refund_request_payment ON refund_request (payment_id);
CREATE INDEX refund_request_order ON refund_request (order_id, requested_at);
CREATE INDEX refund_request_waiting ON refund_request (requested_at) WHERE status = 'awaiting_approval';

-- Never more than was paid, in total, whatever runs at once: a request reserves its amount
-- until it is rejected. Only a payment that succeeded is refunded this way.
CREATE TRIGGER refund_within_payment BEFORE INSERT ON refund_request
WHEN NOT EXISTS (SELECT 1 FROM payment WHERE id = NEW.payment_id AND order_id = NEW.order_id AND status = 'succeeded' AND method = NEW.method)
  OR (SELECT coalesce(sum(amount), 0) FROM refund_request WHERE payment_id = NEW.payment_id AND status <> 'rejected') + NEW.amount
     > (SELECT amount FROM payment WHERE id = NEW.payment_id)
BEGIN SELECT RAISE(ABORT, 'refund_exceeds_payment'); END;

-- A decision is final, and only a decision changes a request.
CREATE TRIGGER refund_request_decided_once BEFORE UPDATE ON refund_request
WHEN OLD.status <> 'awaiting_approval'
  OR NEW.amount <> OLD.amount OR NEW.payment_id <> OLD.payment_id OR NEW.order_id <> OLD.order_id OR NEW.method <> OLD.method
  OR NEW.requested_by <> OLD.requested_by
BEGIN SELECT RAISE(ABORT, 'refund: a decided refund does not change'); END;
CREATE TRIGGER refund_request_kept BEFORE DELETE ON refund_request
BEGIN SELECT RAISE(ABORT, 'refund: refunds are kept'); END;

-- 2. WeChat Pay's side of a refund, automatic or an operator's: one table, one machine that
-- asks, queries and settles (wechat-pay/payments/refunds.ts). An operator may refund one
-- payment in several parts, so `payment_id` is unique only among automatic refunds.
-- SQLite cannot drop a UNIQUE constraint: the table is rebuilt (nothing refers to it).
CREATE TABLE wechat_refund_next (
  out_refund_no TEXT PRIMARY KEY CHECK (length(out_refund_no) <= 64),
  payment_id TEXT NOT NULL REFERENCES payment (id),
  order_id TEXT NOT NULL REFERENCES orders (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL CHECK (reason IN ('order_closed', 'order_already_paid', 'operator')),
  status TEXT NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'processing', 'succeeded', 'abnormal', 'closed', 'refused')),
  refund_id TEXT,
  in_tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  out_tx_id TEXT UNIQUE REFERENCES journal_tx (id),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT CHECK (last_error IS NULL OR length(last_error) <= 500),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- The operator's refund it carries out (NULL for an automatic refund).
  request_id TEXT UNIQUE REFERENCES refund_request (id),
  CHECK ((status = 'succeeded') = (out_tx_id IS NOT NULL)),
  CHECK ((reason = 'operator') = (request_id IS NOT NULL))
) STRICT;
INSERT INTO wechat_refund_next (out_refund_no, payment_id, order_id, amount, reason, status, refund_id, in_tx_id, out_tx_id, attempts, next_attempt_at, last_error, created_at, updated_at)
SELECT out_refund_no, payment_id, order_id, amount, reason, status, refund_id, in_tx_id, out_tx_id, attempts, next_attempt_at, last_error, created_at, updated_at
FROM wechat_refund;
DROP TABLE wechat_refund;
ALTER TABLE wechat_refund_next RENAME TO wechat_refund;
CREATE UNIQUE INDEX wechat_refund_automatic_once ON wechat_refund (payment_id) WHERE reason <> 'operator';
CREATE INDEX wechat_refund_due ON wechat_refund (next_attempt_at) WHERE status IN ('due', 'processing');
CREATE INDEX wechat_refund_order ON wechat_refund (order_id);
CREATE TRIGGER wechat_refund_final BEFORE UPDATE OF status ON wechat_refund
WHEN OLD.status = 'succeeded'
BEGIN SELECT RAISE(ABORT, 'refund: a refund that succeeded does not change'); END;
