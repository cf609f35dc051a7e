-- The double-entry ledger (docs/decisions/003-ledger.md), prepaid codes and transfers.
-- Every rule that keeps money whole lives here, so no code above can break it.
PRAGMA defer_foreign_keys = on;

-- Money enters and leaves the system through the world account; it alone may go negative.
INSERT INTO account (id, owner_id, kind) VALUES ('acc_world', NULL, 'world');

CREATE TABLE journal_tx (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('code_redemption', 'transfer', 'escrow_hold', 'escrow_capture', 'escrow_release', 'refund')),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE entry (
  id INTEGER PRIMARY KEY,
  tx_id TEXT NOT NULL REFERENCES journal_tx (id),
  account_id TEXT NOT NULL REFERENCES account (id),
  bucket TEXT NOT NULL CHECK (bucket IN ('available', 'held')),
  -- Bounded far below 2^53 so sums stay exact in JavaScript.
  amount INTEGER NOT NULL CONSTRAINT entry_amount CHECK (amount <> 0 AND abs(amount) <= 1000000000000)
) STRICT;
CREATE INDEX entry_tx ON entry (tx_id);
CREATE INDEX entry_account ON entry (account_id);

-- Inserted last in every batch that writes a transaction: it must balance then.
CREATE TABLE tx_seal (tx_id TEXT PRIMARY KEY REFERENCES journal_tx (id)) STRICT;

CREATE TRIGGER entry_applies_to_balance AFTER INSERT ON entry
BEGIN
  UPDATE account SET available = available + NEW.amount WHERE id = NEW.account_id AND NEW.bucket = 'available';
  UPDATE account SET held = held + NEW.amount WHERE id = NEW.account_id AND NEW.bucket = 'held';
END;

CREATE TRIGGER entry_only_into_open_tx BEFORE INSERT ON entry
WHEN EXISTS (SELECT 1 FROM tx_seal WHERE tx_id = NEW.tx_id)
BEGIN SELECT RAISE(ABORT, 'ledger: transaction is sealed'); END;

CREATE TRIGGER seal_only_balanced BEFORE INSERT ON tx_seal
WHEN (SELECT count(*) FROM entry WHERE tx_id = NEW.tx_id) < 2
  OR (SELECT sum(amount) FROM entry WHERE tx_id = NEW.tx_id) <> 0
BEGIN SELECT RAISE(ABORT, 'ledger: transaction does not balance'); END;

-- Entries, transactions and seals are never edited or deleted: mistakes are reversed.
CREATE TRIGGER entry_immutable_update BEFORE UPDATE ON entry BEGIN SELECT RAISE(ABORT, 'ledger: entries are immutable'); END;
CREATE TRIGGER entry_immutable_delete BEFORE DELETE ON entry BEGIN SELECT RAISE(ABORT, 'ledger: entries are immutable'); END;
CREATE TRIGGER tx_immutable_update BEFORE UPDATE ON journal_tx BEGIN SELECT RAISE(ABORT, 'ledger: transactions are immutable'); END;
CREATE TRIGGER tx_immutable_delete BEFORE DELETE ON journal_tx BEGIN SELECT RAISE(ABORT, 'ledger: transactions are immutable'); END;
CREATE TRIGGER seal_immutable_update BEFORE UPDATE ON tx_seal BEGIN SELECT RAISE(ABORT, 'ledger: seals are immutable'); END;
CREATE TRIGGER seal_immutable_delete BEFORE DELETE ON tx_seal BEGIN SELECT RAISE(ABORT, 'ledger: seals are immutable'); END;

-- Prepaid codes are bearer value: only their SHA-256 is stored, like passwords.
CREATE TABLE prepaid_code (
  code_hash TEXT PRIMARY KEY CHECK (length(code_hash) = 64),
  value INTEGER NOT NULL CHECK (value > 0 AND value <= 100000000),
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  batch TEXT NOT NULL
) STRICT;

-- One row per redeemed code: the primary key is what makes a code single-use.
CREATE TABLE code_redemption (
  code_hash TEXT PRIMARY KEY REFERENCES prepaid_code (code_hash),
  user_id TEXT NOT NULL REFERENCES user (id),
  tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  at INTEGER NOT NULL
) STRICT;

CREATE TABLE code_failure (
  user_id TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX code_failure_user_at ON code_failure (user_id, at);

CREATE TABLE transfer (
  id TEXT PRIMARY KEY,
  from_user TEXT NOT NULL REFERENCES user (id),
  to_user TEXT NOT NULL REFERENCES user (id),
  amount INTEGER NOT NULL CHECK (amount BETWEEN 1 AND 5000000),
  note TEXT NOT NULL CHECK (length(note) <= 140),
  tx_id TEXT NOT NULL UNIQUE REFERENCES journal_tx (id),
  created_at INTEGER NOT NULL,
  CONSTRAINT transfer_not_to_self CHECK (from_user <> to_user)
) STRICT;
CREATE INDEX transfer_from ON transfer (from_user, created_at);
CREATE INDEX transfer_to ON transfer (to_user, created_at);

-- What each user sent per day (China Standard Time), raised in the transfer's own batch:
-- concurrent transfers cannot together pass the daily limit.
CREATE TABLE transfer_daily (
  user_id TEXT NOT NULL REFERENCES user (id),
  day TEXT NOT NULL,
  total INTEGER NOT NULL CONSTRAINT transfer_daily_limit CHECK (total <= 10000000),
  PRIMARY KEY (user_id, day)
) STRICT;
