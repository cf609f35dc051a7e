-- Inside WeChat, JSAPI's payment sheet needs the payer's openid for the merchant's appid:
-- WeChat's own silent sign-in (web authorization, snsapi_base) gives it
-- (docs/decisions/073-wechat-payer-sign-in.md).

-- One sign-in under way: the state WeChat carries back with its code, good once, for ten
-- minutes, and only for the person who started it. The cron prunes expired ones
-- (retention/retention.ts).
CREATE TABLE wechat_sign_in (
  state TEXT PRIMARY KEY CHECK (length(state) = 64),
  user_id TEXT NOT NULL REFERENCES user (id),
  appid TEXT NOT NULL CHECK (length(appid) BETWEEN 1 AND 32),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL CHECK (expires_at > created_at)
) STRICT;

CREATE INDEX wechat_sign_in_expiry ON wechat_sign_in (expires_at);

-- What WeChat said a person's openid is for an appid, from their latest sign-in. JSAPI asks
-- WeChat Pay with this one, never with an openid a client names.
CREATE TABLE wechat_payer (
  user_id TEXT NOT NULL REFERENCES user (id),
  appid TEXT NOT NULL CHECK (length(appid) BETWEEN 1 AND 32),
  openid TEXT NOT NULL CHECK (length(openid) BETWEEN 1 AND 128),
  signed_in_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, appid)
) STRICT;
