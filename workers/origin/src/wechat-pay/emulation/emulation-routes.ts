/**
 * Local emulation only: with the WeChat Pay simulator bound (`npm run dev`, the end-to-end
 * server, tests), a payer stand-in — "scan and pay" for the signed-in owner of an order, and
 * H5's cashier page and WeChat's authorize page — and a stand-in for WeChat Pay's merchant platform, for a finance operator. `createOriginApp` mounts these only where the simulator is bound, and as
 * plain Hono routes they stay out of the published OpenAPI document: they are no part of the
 * contract, and production never has them.
 */
import { Hono } from "hono";
import { simulatePaymentBodySchema } from "#contract/payments";
import { signedInUser } from "../../auth/signed-in-user";
import { ApiError, noRouteError } from "../../http/answer";
import { jsonBody } from "../../http/validation";
import type { OriginEnv } from "../../origin-env";
import { operatorWith } from "../../ops/operator-access";
import { findPendingWechatPayment } from "../payments/payment-rows";
import { authorizePage } from "./authorize-page";
import { cashier } from "./cashier";

export const emulationRoutes = new Hono<OriginEnv>();

// The payer scans and pays the order's WeChat Pay payment in the simulator; the order is paid
// when its notification arrives, as with WeChat Pay.
emulationRoutes.post("/pay", signedInUser, jsonBody(simulatePaymentBodySchema), async (c) => {
  const wechat = await c.var.wechatPay();
  // No simulator to pay at (WeChat Pay not configured here): answered as a path with no route.
  if (!wechat?.simulator) throw noRouteError(c);
  const { orderId, refundOutcome, refundAmount, notifyAfterSeconds, refundAfterSeconds } = c.req.valid("json");
  const payment = await findPendingWechatPayment(c.env.DB, orderId);
  if (!payment || payment.user_id !== c.var.user.id) throw new ApiError("NOT_FOUND", "No WeChat Pay payment is waiting for this order.");
  const url = `https://wechatpay-simulator.internal/__simulator/orders/${encodeURIComponent(payment.out_trade_no)}/pay?mchid=${encodeURIComponent(wechat.client.config.mchid)}`;
  const answer = await wechat.simulator.fetch(
    new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        ...(payment.openid ? { openid: payment.openid } : {}),
        ...(refundOutcome ? { refundOutcome } : {}),
        ...(refundAmount ? { refundAmount } : {}),
        ...(notifyAfterSeconds ? { notify: { delaySeconds: notifyAfterSeconds } } : {}),
        ...(refundAfterSeconds ? { refundAfterSeconds } : {}),
      }),
    }),
  );
  if (answer.status === 404) throw new ApiError("NOT_FOUND", "WeChat Pay has no order for this payment yet.");
  if (!answer.ok)
    throw new ApiError(
      "ORDER_NOT_PENDING",
      `The simulator refused: ${((await answer.json().catch(() => ({}))) as { error?: string }).error ?? answer.status}.`,
    );
  return c.json({ code: "SUCCESS" as const, data: { orderId, outTradeNo: payment.out_trade_no, paid: true as const } }, 200);
});

// Someone at WeChat Pay's merchant platform pays an abnormal refund out to the payer's new
// card, which Paydesk never asks for: how a refund returned to a wallet comes to be paid twice
// (docs/decisions/060-refunds-paid-twice.md). The simulator notifies its success as WeChat Pay would.
emulationRoutes.post("/merchant-platform/refunds/:outRefundNo/pay-out", operatorWith("refund"), async (c) => {
  const wechat = await c.var.wechatPay();
  if (!wechat?.simulator) throw noRouteError(c);
  const outRefundNo = c.req.param("outRefundNo");
  const url = `https://wechatpay-simulator.internal/__simulator/refunds/${encodeURIComponent(outRefundNo)}/pay-out-abnormal?mchid=${encodeURIComponent(wechat.client.config.mchid)}`;
  const answer = await wechat.simulator.fetch(
    new Request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }),
  );
  if (answer.status === 404) throw new ApiError("NOT_FOUND", "WeChat Pay has no such refund.");
  if (answer.status === 409) {
    const { error } = (await answer.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(
      "REFUND_NOT_FAILED",
      `The merchant platform pays out only an abnormal refund its order can still refund: ${error ?? "refused"}.`,
    );
  }
  if (!answer.ok) throw new Error(`The simulator answered ${answer.status} to the merchant platform's pay-out`);
  return c.json({ code: "SUCCESS" as const, data: { outRefundNo, paidOut: true as const } }, 200);
});

emulationRoutes.get("/cashier", cashier);
// Inside WeChat, WeChat's silent sign-in for JSAPI (docs/decisions/073-wechat-payer-sign-in.md).
emulationRoutes.get("/connect/oauth2/authorize", authorizePage);
emulationRoutes.post("/cashier", cashier);
