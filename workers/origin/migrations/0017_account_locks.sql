-- Locked accounts (docs/decisions/013-account-locks.md): an admin locks an account; it
-- still signs in, reads its records and talks to support, but no money moves by its hand or
-- to it from another person, until an admin unlocks it. The money it holds stays, and an
-- operator can still refund its payments.
ALTER TABLE user ADD COLUMN locked_at INTEGER;

-- The doors refuse a locked account's writes before they begin (auth/signed-in-user.ts).
-- These triggers close the gap between that check and the batch: a lock that commits first
-- makes the batch fail as a whole, whatever runs at once.
CREATE TRIGGER transfer_parties_not_locked BEFORE INSERT ON transfer
WHEN EXISTS (SELECT 1 FROM user WHERE id IN (NEW.from_user, NEW.to_user) AND locked_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'account_locked: a transfer party is locked'); END;

CREATE TRIGGER code_redeemer_not_locked BEFORE INSERT ON code_redemption
WHEN EXISTS (SELECT 1 FROM user WHERE id = NEW.user_id AND locked_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'account_locked: the redeemer is locked'); END;

-- A new payment (wallet, or a WeChat Pay payment started); a WeChat Pay payment started
-- before the lock still settles when WeChat Pay reports it: that money has already moved.
CREATE TRIGGER payer_not_locked BEFORE INSERT ON payment
WHEN EXISTS (SELECT 1 FROM orders JOIN user ON user.id = orders.user_id WHERE orders.id = NEW.order_id AND user.locked_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'account_locked: the payer is locked'); END;
