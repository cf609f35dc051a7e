-- When a create was last asked of WeChat Pay for a payment (session 23). Until WeChat Pay's
-- answer is in, a close meeting ORDER_NOT_EXIST proves nothing: the create may still land.
-- Another flow therefore waits while a create of a payment still `creating` is recent, and a
-- payment is given up on ORDER_NOT_EXIST only if no create was asked since it was read
-- (docs/decisions/004-wechat-pay.md). Its own column: the cron's checks touch updated_at.
-- Payments stored before have none, as if their create were long past.
ALTER TABLE payment ADD COLUMN create_asked_at INTEGER;
