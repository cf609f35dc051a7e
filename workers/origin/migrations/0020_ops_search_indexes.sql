-- The back office's searches (docs/decisions/014-back-office-desks.md): an index for each
-- query that would otherwise read a whole table. Each query names the index that serves it
-- (workers/origin/src/ops/order-search.ts, workers/origin/src/ops/audit-trail.ts).

-- An order found by WeChat Pay's transaction id (out_trade_no has its UNIQUE index).
CREATE INDEX payment_transaction_id ON payment (transaction_id) WHERE transaction_id IS NOT NULL;

-- All orders, newest first: the order desk's list without a person, its cursor and date range.
CREATE INDEX orders_newest ON orders (created_at DESC, id DESC);

-- The audit trail is read newest first by id. An operator's rows, and one action's, in that
-- order (audit_log_actor orders them by time, which concurrent requests may interleave).
CREATE INDEX audit_log_actor_newest ON audit_log (actor_id, id);
CREATE INDEX audit_log_action ON audit_log (action, id);
