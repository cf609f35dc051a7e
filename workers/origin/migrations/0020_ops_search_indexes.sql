-- The back office's searches (docs/decisions/014-back-office-desks.md): an index for each
-- query that would otherwise read a whole table. Each query names the index that serves it
-- (workers/origin/src/ops/order-search.ts).

-- An order found by WeChat Pay's transaction id (out_trade_no has its UNIQUE index).
CREATE INDEX payment_transaction_id ON payment (transaction_id) WHERE transaction_id IS NOT NULL;

-- All orders, newest first: the order desk's list without a person, its cursor and date range.
CREATE INDEX orders_newest ON orders (created_at DESC, id DESC);
