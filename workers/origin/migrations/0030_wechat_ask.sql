-- "Ask WeChat Pay now" (workers/origin/src/ops/wechat-ask-routes.ts): when each order was last
-- asked about. One conditional UPSERT reserves the next ask, so two operators clicking at
-- once cannot both query WeChat Pay inside its 10-second interval. The cron deletes rows
-- older than the interval (retention).
CREATE TABLE wechat_ask (
  order_id TEXT PRIMARY KEY,
  asked_at INTEGER NOT NULL
) STRICT;
CREATE INDEX wechat_ask_at ON wechat_ask (asked_at);
