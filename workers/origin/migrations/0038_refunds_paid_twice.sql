-- WeChat Pay refunds paid twice, settled (docs/decisions/060-refunds-paid-twice.md).
--
-- A failed refund whose money a finance operator returned to the wallet, and which WeChat Pay
-- then paid out as well (someone processed it at the merchant platform), left the person with
-- the money twice: in the wallet and on their card. Migration 0032 recorded that
-- (`late_success_at`); this one lets finance settle it, once, in the batch that books WeChat
-- Pay's payout as money out (to acc_world):
--   take_back:  from the available balance of the wallet the money was returned to;
--   bear:       from acc_paydesk_covered, Paydesk's own money covering the double payment;
-- or, when WeChat Pay paid it to Paydesk's own account (a merchant bank card), books nothing:
--   to_paydesk: the person was paid once, by the return.

-- Where WeChat Pay says the late payout went (user_received_account: a bank card, the
-- payer's balance, or the merchant's own account), for the operator who settles it.
ALTER TABLE wechat_refund_return ADD COLUMN late_success_account TEXT CHECK (length(late_success_account) <= 200);
CREATE TRIGGER wechat_refund_return_account_fixed BEFORE UPDATE OF late_success_account ON wechat_refund_return
WHEN OLD.late_success_at IS NOT NULL AND NEW.late_success_account IS NOT OLD.late_success_account
BEGIN SELECT RAISE(ABORT, 'refund_return: a return does not change'); END;

-- Outside the wallets, like acc_world: it goes below zero by what Paydesk has covered, and
-- the books' money in less money out (every 'world' account together) stays what the
-- wallets, escrows and in-flight refunds hold.
INSERT INTO account (id, owner_id, kind) VALUES ('acc_paydesk_covered', NULL, 'world');

CREATE TABLE wechat_refund_settlement (
  out_refund_no TEXT PRIMARY KEY REFERENCES wechat_refund_return (out_refund_no),
  how TEXT NOT NULL CHECK (how IN ('take_back', 'bear', 'to_paydesk')),
  -- The payout's booking; none when it went to Paydesk's own account.
  tx_id TEXT UNIQUE REFERENCES journal_tx (id),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  settled_by TEXT NOT NULL REFERENCES user (id),
  settled_at INTEGER NOT NULL,
  CHECK ((how = 'to_paydesk') = (tx_id IS NULL))
) STRICT;

-- Only a refund returned to a wallet and paid out by WeChat Pay as well is settled.
CREATE TRIGGER wechat_refund_settlement_paid_twice_only BEFORE INSERT ON wechat_refund_settlement
WHEN NOT EXISTS (SELECT 1 FROM wechat_refund_return WHERE out_refund_no = NEW.out_refund_no AND late_success_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'refund_settlement: the refund was not paid twice'); END;

-- A locked account's money stays where it is (PRODUCT: nothing but a refund moves it).
CREATE TRIGGER wechat_refund_settlement_not_locked BEFORE INSERT ON wechat_refund_settlement
WHEN NEW.how = 'take_back' AND EXISTS (
  SELECT 1 FROM wechat_refund_return JOIN user ON user.id = wechat_refund_return.user_id
  WHERE wechat_refund_return.out_refund_no = NEW.out_refund_no AND user.locked_at IS NOT NULL
)
BEGIN SELECT RAISE(ABORT, 'account_locked: the wallet to take back from is locked'); END;

-- Kept as made, like the ledger.
CREATE TRIGGER wechat_refund_settlement_fixed BEFORE UPDATE ON wechat_refund_settlement
BEGIN SELECT RAISE(ABORT, 'refund_settlement: a settlement does not change'); END;
CREATE TRIGGER wechat_refund_settlement_kept BEFORE DELETE ON wechat_refund_settlement
BEGIN SELECT RAISE(ABORT, 'refund_settlement: settlements are kept'); END;
