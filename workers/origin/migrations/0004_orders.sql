-- Orders (docs/rules-and-limits.md): kinds recharge and task_budget; pending → paid | closed.
PRAGMA defer_foreign_keys = on;

CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES user (id),
  kind TEXT NOT NULL CHECK (kind IN ('recharge', 'task_budget')),
  amount INTEGER NOT NULL CHECK (amount > 0 AND amount <= 100000000),
  description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'closed')),
  close_reason TEXT CHECK (close_reason IN ('cancelled', 'expired')),
  -- First-touch attribution, as the browser recorded it (docs/start-up.md).
  referrer TEXT NOT NULL DEFAULT '' CHECK (length(referrer) <= 2048),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  paid_at INTEGER,
  closed_at INTEGER,
  CHECK ((status = 'closed') = (close_reason IS NOT NULL AND closed_at IS NOT NULL)),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
) STRICT;
CREATE INDEX orders_user_newest ON orders (user_id, created_at DESC, id DESC);
CREATE INDEX orders_pending_expiry ON orders (expires_at) WHERE status = 'pending';

-- A finished order stays finished: paid and closed are final.
CREATE TRIGGER orders_final BEFORE UPDATE OF status ON orders
WHEN OLD.status <> 'pending'
BEGIN SELECT RAISE(ABORT, 'orders: a paid or closed order does not change'); END;

-- The status history the order page shows; written by trigger so no path can skip it.
CREATE TABLE order_event (
  id INTEGER PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id),
  status TEXT NOT NULL,
  reason TEXT,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX order_event_order ON order_event (order_id, id);

CREATE TRIGGER orders_created AFTER INSERT ON orders
BEGIN INSERT INTO order_event (order_id, status, reason, at) VALUES (NEW.id, NEW.status, NULL, NEW.created_at); END;

CREATE TRIGGER orders_status_changed AFTER UPDATE OF status ON orders
WHEN NEW.status <> OLD.status
BEGIN
  INSERT INTO order_event (order_id, status, reason, at)
  VALUES (NEW.id, NEW.status, NEW.close_reason, coalesce(NEW.paid_at, NEW.closed_at));
END;

-- Payment attempts: an order may have several, at most one succeeds.
CREATE TABLE payment (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id),
  method TEXT NOT NULL CHECK (method IN ('wallet', 'wechat')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded')),
  amount INTEGER NOT NULL CHECK (amount > 0),
  -- WeChat Pay's merchant order number, reused for a repeated request (issue #5).
  out_trade_no TEXT UNIQUE,
  tx_id TEXT REFERENCES journal_tx (id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX payment_order ON payment (order_id);
CREATE UNIQUE INDEX payment_one_success ON payment (order_id) WHERE status = 'succeeded';
