/**
 * WeChat's web authorization for official accounts (网页授权), silent `snsapi_base` scope:
 * the page inside WeChat is sent to WeChat's authorize page, which returns it at once to
 * `redirect_uri` with a code and the state given; the code, good once for five minutes, is
 * swapped here for the person's openid with the account's AppSecret. WeChat answers a refusal
 * with HTTP 200 and `errcode` (docs/decisions/073-wechat-payer-sign-in.md).
 */
import { z } from "zod";
import { wechatOpenidSchema } from "#contract/payments";
import type { WechatPay } from "../config";

const authorizePage = "https://open.weixin.qq.com/connect/oauth2/authorize";
const apiBase = "https://api.weixin.qq.com";
/** Local emulation: the simulator's stand-in for WeChat's authorize page, through the origin (emulation-routes.ts). */
const simulatorAuthorizePath = "/api/payments/wechat/simulator/connect/oauth2/authorize";
const simulatorApiBase = "http://wechatpay-simulator.internal";
const exchangeTimeoutMs = 8_000;

/**
 * WeChat's authorize page for this sign-in. The query's order and the closing
 * `#wechat_redirect` are as WeChat documents them; in emulation, the simulator's stand-in on
 * the page's own origin.
 */
export function authorizeUrl(wechat: WechatPay, redirectUri: string, state: string, pageOrigin: string): string {
  const query = `appid=${encodeURIComponent(wechat.appid)}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=snsapi_base&state=${state}`;
  return wechat.simulator ? `${pageOrigin}${simulatorAuthorizePath}?${query}` : `${authorizePage}?${query}#wechat_redirect`;
}

// `is_snapshotuser: 1`: WeChat opened the page as a snapshot (朋友圈's snapshot mode), whose
// openid is a stand-in that can pay nothing.
const accessTokenAnswer = z.looseObject({ openid: wechatOpenidSchema, is_snapshotuser: z.number().optional() });
const refusalAnswer = z.looseObject({ errcode: z.number().int(), errmsg: z.string().optional() });

/** WeChat's refusals of a code itself: invalid (40029), used already (40163), timed out (42003). */
const codeRefusals = new Set([40029, 40163, 42003]);

export type CodeExchange =
  | { outcome: "ok"; openid: string }
  /** WeChat refused the code, or gave a snapshot page's stand-in openid: the person signs in again. */
  | { outcome: "code_refused"; errcode: number | "snapshot" }
  /** No clear answer, or a refusal of Paydesk's own configuration (the AppSecret): reported. */
  | { outcome: "unavailable"; reason: string };

/** The code swapped for the person's openid at `/sns/oauth2/access_token`. */
export async function exchangeCode(wechat: WechatPay, code: string): Promise<CodeExchange> {
  const base = wechat.simulator ? simulatorApiBase : apiBase;
  const url = `${base}/sns/oauth2/access_token?appid=${encodeURIComponent(wechat.appid)}&secret=${encodeURIComponent(wechat.appSecret ?? "")}&code=${encodeURIComponent(code)}&grant_type=authorization_code`;
  const request = new Request(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(exchangeTimeoutMs) });
  let body: unknown;
  try {
    const response = await (wechat.simulator ? wechat.simulator.fetch(request) : fetch(request));
    if (!response.ok) return { outcome: "unavailable", reason: `HTTP ${response.status}` };
    body = await response.json();
  } catch (error) {
    return { outcome: "unavailable", reason: error instanceof Error ? error.name : "network error" };
  }
  const refused = refusalAnswer.safeParse(body);
  if (refused.success && refused.data.errcode !== 0) {
    return codeRefusals.has(refused.data.errcode)
      ? { outcome: "code_refused", errcode: refused.data.errcode }
      : { outcome: "unavailable", reason: `errcode ${refused.data.errcode}` };
  }
  const answered = accessTokenAnswer.safeParse(body);
  if (!answered.success) return { outcome: "unavailable", reason: "unreadable answer" };
  if (answered.data.is_snapshotuser === 1) return { outcome: "code_refused", errcode: "snapshot" };
  return { outcome: "ok", openid: answered.data.openid };
}
