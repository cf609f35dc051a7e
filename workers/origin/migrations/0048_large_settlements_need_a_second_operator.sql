-- A refund paid twice settled by Paydesk bearing it, or found paid to Paydesk's own account,
-- for more than REFUND_APPROVAL_THRESHOLD waits for a second operator
-- (docs/decisions/072-large-settlements-need-a-second-operator.md).
--
-- The route decides whether a settlement waits (the threshold is a deploy's setting); these
-- tables hold the rest: a request is written waiting, moves forward once, is decided by a
-- second operator as refunds and code batches are (migration 0042), and a settlement that
-- carries one is the settlement it asked for, approved. While one waits, the refund is settled
-- by nothing else, and a refund settled already takes no request.
CREATE TABLE wechat_refund_settlement_request (
  id TEXT PRIMARY KEY,
  out_refund_no TEXT NOT NULL REFERENCES wechat_refund_return (out_refund_no),
  how TEXT NOT NULL CHECK (how IN ('bear', 'to_paydesk')),
  -- What WeChat Pay paid out, which the settlement books (or finds paid to Paydesk).
  amount INTEGER NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  -- withdrawn: whoever asked took it back before anyone decided (decided_by is then they).
  status TEXT NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected', 'withdrawn')),
  requested_by TEXT NOT NULL REFERENCES user (id),
  requested_at INTEGER NOT NULL,
  decided_by TEXT REFERENCES user (id),
  decided_at INTEGER,
  decision_note TEXT CHECK (decision_note IS NULL OR length(decision_note) BETWEEN 1 AND 500),
  CHECK ((status = 'awaiting_approval') = (decided_by IS NULL)),
  CHECK ((decided_by IS NULL) = (decided_at IS NULL)),
  CHECK ((status = 'withdrawn') = (decided_by IS NOT NULL AND decided_by = requested_by)),
  -- A rejection says why.
  CHECK (status <> 'rejected' OR decision_note IS NOT NULL)
);

-- One request waits per refund at a time.
CREATE UNIQUE INDEX wechat_refund_settlement_request_one_waiting
ON wechat_refund_settlement_request (out_refund_no) WHERE status = 'awaiting_approval';
-- A refund's requests, newest last (its order page shows the newest).
CREATE INDEX wechat_refund_settlement_request_of_refund ON wechat_refund_settlement_request (out_refund_no, requested_at);

CREATE TRIGGER wechat_refund_settlement_request_written_waiting BEFORE INSERT ON wechat_refund_settlement_request
WHEN NEW.status <> 'awaiting_approval'
BEGIN SELECT RAISE(ABORT, 'settlement request: written awaiting approval'); END;

CREATE TRIGGER wechat_refund_settlement_request_paid_twice_only BEFORE INSERT ON wechat_refund_settlement_request
WHEN NOT EXISTS (SELECT 1 FROM wechat_refund_return WHERE out_refund_no = NEW.out_refund_no AND late_success_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'refund_settlement: the refund was not paid twice'); END;

CREATE TRIGGER wechat_refund_settlement_request_unsettled BEFORE INSERT ON wechat_refund_settlement_request
WHEN EXISTS (SELECT 1 FROM wechat_refund_settlement WHERE out_refund_no = NEW.out_refund_no)
BEGIN SELECT RAISE(ABORT, 'settlement request: the refund is settled already'); END;

-- Decided (or withdrawn) once; what was asked never changes.
CREATE TRIGGER wechat_refund_settlement_request_forward BEFORE UPDATE ON wechat_refund_settlement_request
WHEN OLD.status <> 'awaiting_approval'
  OR NEW.id IS NOT OLD.id OR NEW.out_refund_no IS NOT OLD.out_refund_no OR NEW.how IS NOT OLD.how
  OR NEW.amount IS NOT OLD.amount OR NEW.reason IS NOT OLD.reason
  OR NEW.requested_by IS NOT OLD.requested_by OR NEW.requested_at IS NOT OLD.requested_at
BEGIN SELECT RAISE(ABORT, 'settlement request: a decided request does not change'); END;

-- Decided by a second operator: finance or admin since before the request, linked to whoever
-- asked by no chain of grants, either way (as migration 0042 holds for refunds and code batches).
CREATE TRIGGER wechat_refund_settlement_request_second_operator BEFORE UPDATE OF status ON wechat_refund_settlement_request
WHEN OLD.status = 'awaiting_approval' AND NEW.status IN ('approved', 'rejected') AND (
  NEW.decided_by IS NULL
  OR NOT EXISTS (
    SELECT 1 FROM operator_role
    WHERE user_id = NEW.decided_by AND role IN ('finance', 'admin') AND granted_at <= OLD.requested_at
  )
  OR EXISTS (
    SELECT 1 FROM operators_linked WHERE operator_id = NEW.decided_by AND other_id = OLD.requested_by
  )
)
BEGIN SELECT RAISE(ABORT, 'settlement request: decided by a second operator'); END;

CREATE TRIGGER wechat_refund_settlement_request_kept BEFORE DELETE ON wechat_refund_settlement_request
BEGIN SELECT RAISE(ABORT, 'settlement request: requests are kept'); END;

-- The settlement an approved request asked for, once.
ALTER TABLE wechat_refund_settlement ADD COLUMN request_id TEXT REFERENCES wechat_refund_settlement_request (id);
CREATE UNIQUE INDEX wechat_refund_settlement_of_request ON wechat_refund_settlement (request_id) WHERE request_id IS NOT NULL;

CREATE TRIGGER wechat_refund_settlement_as_approved BEFORE INSERT ON wechat_refund_settlement
WHEN NEW.request_id IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM wechat_refund_settlement_request AS request
  WHERE request.id = NEW.request_id AND request.status = 'approved'
    AND request.out_refund_no = NEW.out_refund_no AND request.how = NEW.how
    AND request.requested_by = NEW.settled_by AND request.reason = NEW.reason
)
BEGIN SELECT RAISE(ABORT, 'settlement request: only an approved request is settled, as asked'); END;

CREATE TRIGGER wechat_refund_settlement_not_while_waiting BEFORE INSERT ON wechat_refund_settlement
WHEN NEW.request_id IS NULL AND EXISTS (
  SELECT 1 FROM wechat_refund_settlement_request
  WHERE out_refund_no = NEW.out_refund_no AND status = 'awaiting_approval'
)
BEGIN SELECT RAISE(ABORT, 'settlement request: one waits for a second operator'); END;

-- Nobody asks for, or decides on, the settlement of a refund of their own order (as migration
-- 0043 holds for the settlement itself).
CREATE TRIGGER wechat_refund_settlement_request_not_for_the_asker BEFORE INSERT ON wechat_refund_settlement_request
WHEN NEW.requested_by = (SELECT user_id FROM wechat_refund_return WHERE out_refund_no = NEW.out_refund_no) OR NEW.requested_by = (
  SELECT orders.user_id FROM wechat_refund JOIN orders ON orders.id = wechat_refund.order_id
  WHERE wechat_refund.out_refund_no = NEW.out_refund_no
)
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;

CREATE TRIGGER wechat_refund_settlement_request_not_for_the_decider BEFORE UPDATE OF status ON wechat_refund_settlement_request
WHEN NEW.decided_by = (SELECT user_id FROM wechat_refund_return WHERE out_refund_no = OLD.out_refund_no) OR NEW.decided_by = (
  SELECT orders.user_id FROM wechat_refund JOIN orders ON orders.id = wechat_refund.order_id
  WHERE wechat_refund.out_refund_no = OLD.out_refund_no
)
BEGIN SELECT RAISE(ABORT, 'refund: not for the operator''s own order'); END;

-- A request is for what WeChat Pay paid out, which its settlement books: the late success's
-- amount, or the refund's own where that is NULL (migration 0045).
CREATE TRIGGER wechat_refund_settlement_request_paid_out BEFORE INSERT ON wechat_refund_settlement_request
WHEN NEW.amount IS NOT (
  SELECT coalesce(returned.late_success_amount, refund.amount)
  FROM wechat_refund_return AS returned JOIN wechat_refund AS refund ON refund.out_refund_no = returned.out_refund_no
  WHERE returned.out_refund_no = NEW.out_refund_no
)
BEGIN SELECT RAISE(ABORT, 'settlement request: for what WeChat Pay paid out'); END;
