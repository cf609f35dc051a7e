import type { Context } from "hono";
import { afterAnswer } from "../../http/after-answer";
import type { OriginEnv } from "../../origin-env";
import { reconcileWechatPayments } from "./reconcile-payments";

/**
 * Once an order can no longer be paid here (paid from the wallet, cancelled, its task
 * cancelled), a WeChat Pay order waiting for it is closed at WeChat Pay, after the answer
 * (trigger `order_done_checks_wechat` made it due; the cron retries what does not close).
 * Nothing here can change the answer: a failure, even in building the WeChat Pay client, is
 * reported, not thrown.
 */
export function closeWechatPayAfterAnswer(c: Context<OriginEnv>, orderId: string, now: number): Promise<void> {
  return afterAnswer(c, "Closing the WeChat Pay order", async () => {
    const wechat = await c.var.wechatPay();
    if (wechat) await reconcileWechatPayments(c.env.DB, wechat, now, { orderId });
  });
}
