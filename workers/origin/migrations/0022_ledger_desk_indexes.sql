-- The ledger desk (GET /api/ops/ledger/transactions/{id}): the payment a journal transaction
-- settled. Every other table that names a transaction has a unique index on it already.
CREATE INDEX payment_tx ON payment (tx_id) WHERE tx_id IS NOT NULL;
