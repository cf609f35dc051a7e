import type { Clock } from "../origin-env";
import type { WechatPay } from "./config";

export type WechatPayOf = (env: Env) => Promise<WechatPay | null>;

/**
 * `wechatPayFactory` (factory.ts), whose client and its modules are evaluated on the first
 * call rather than with every isolate: most first requests never reach WeChat Pay
 * (docs/decisions/041-origin-routers-on-first-use.md). One per isolate is shared by every
 * app it builds, so that WeChat Pay's certificates are fetched once.
 */
export function wechatPayOnFirstUse(clock: Clock, options: { timeoutMs?: number } = {}): WechatPayOf {
  let made: Promise<WechatPayOf> | undefined;
  return async (env) => {
    made ??= import("./factory").then(({ wechatPayFactory }) => wechatPayFactory(clock, options));
    return (await made)(env);
  };
}
