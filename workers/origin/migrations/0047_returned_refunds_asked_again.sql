-- A WeChat Pay refund returned to a wallet is asked about again, now and then
-- (docs/decisions/071-returned-refunds-asked-again.md).
--
-- WeChat Pay can still pay such a refund out (someone at the merchant platform handling an
-- abnormal refund), and until now only its notification said so: every delivery lost, and
-- the double payment would have gone unnoticed (decision 060). The cron now asks WeChat Pay
-- about each returned refund at `next_ask_at` (wechat-pay/reconcile/ask-returned-refunds.ts),
-- which it moves on after each ask and clears once the refund has been paid out or a year
-- has passed since the return.
ALTER TABLE wechat_refund_return ADD COLUMN next_ask_at INTEGER;

-- The first ask, an hour after the return, set here for every writer: the return routes, and
-- any code deployed before this migration that still writes returns.
CREATE TRIGGER wechat_refund_return_first_ask AFTER INSERT ON wechat_refund_return
WHEN NEW.next_ask_at IS NULL
BEGIN
  UPDATE wechat_refund_return SET next_ask_at = NEW.returned_at + 3600000 WHERE out_refund_no = NEW.out_refund_no;
END;

-- Returns made before this migration: asked about on the cron's next runs.
UPDATE wechat_refund_return SET next_ask_at = returned_at + 3600000 WHERE late_success_at IS NULL;

CREATE INDEX wechat_refund_return_next_ask ON wechat_refund_return (next_ask_at) WHERE next_ask_at IS NOT NULL;
