-- Money moved per day (China time, UTC+8) and kind of journal transaction, kept as each
-- transaction is sealed (docs/decisions/027-recorded-ledger-checks.md): the overview reads 30
-- rows instead of summing every entry of the last 30 days. A ledger invariant holds it to
-- the entries.
CREATE TABLE daily_volume (
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  kind TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  transactions INTEGER NOT NULL CHECK (transactions >= 0),
  PRIMARY KEY (day, kind)
) STRICT;

-- The seal comes last in a transaction's batch, once, when its entries are all written.
CREATE TRIGGER daily_volume_on_seal AFTER INSERT ON tx_seal
BEGIN
  INSERT INTO daily_volume (day, kind, amount, transactions)
  SELECT date(journal_tx.created_at / 1000 + 28800, 'unixepoch'), journal_tx.kind,
         (SELECT coalesce(sum(amount), 0) FROM entry WHERE tx_id = NEW.tx_id AND amount > 0), 1
  FROM journal_tx WHERE journal_tx.id = NEW.tx_id
  ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, transactions = transactions + 1;
END;

INSERT INTO daily_volume (day, kind, amount, transactions)
SELECT date(journal_tx.created_at / 1000 + 28800, 'unixepoch') AS day, journal_tx.kind,
       coalesce(sum((SELECT coalesce(sum(amount), 0) FROM entry WHERE tx_id = journal_tx.id AND amount > 0)), 0), count(*)
FROM journal_tx JOIN tx_seal ON tx_seal.tx_id = journal_tx.id
GROUP BY day, journal_tx.kind;
