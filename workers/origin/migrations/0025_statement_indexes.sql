-- The statement (docs/decisions/026-statement-and-receipts.md): a wallet's available entries in
-- id order with their amounts and transactions, read from the index alone — the balance after
-- each line (the entries newer than it, summed) and the monthly totals.
CREATE INDEX entry_account_statement ON entry (account_id, bucket, id, tx_id, amount);
