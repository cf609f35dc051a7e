import * as Sentry from "@sentry/cloudflare";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { orderIdParamSchema } from "#contract/orders";
import { payAnswerSchema, payOrderBodySchema, type WechatPrepay } from "#contract/payments";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotent } from "../idempotency/idempotency";
import { isOverdraft, journalStatements, walletAccountOf } from "../ledger/journal";
import type { OriginEnv } from "../origin-env";
import type { WechatPay } from "../payments/wechat-config";
import {
  findPendingWechatPayment,
  insertWechatPayment,
  markPaymentFailed,
  newOutTradeNo,
  noteRemoteState,
  wechatCall,
  type WechatPaymentRow,
} from "../payments/wechat-payments";
import { afterAnswer } from "../payments/after-answer";
import { checkPayment, reconcileWechatPayments } from "../payments/wechat-reconcile";
import { wechatDescription, type OrderInput, type WechatPayOutcome } from "../wechatpay/client";

const pay = createRoute({
  method: "post",
  path: "/{id}/pay",
  summary: "Pay an order: from the wallet (task budgets) at once, or start a WeChat Pay payment (Native, H5, JSAPI)",
  description:
    "WeChat Pay: the payment is stored before WeChat Pay is asked; a repeated request for the same pending order and flow reuses its out_trade_no (WeChat Pay hands out a fresh code). " +
    "Another flow (or another openid or client address for the same flow) closes the waiting WeChat Pay order first, then starts a new one. " +
    "The order is paid when WeChat Pay notifies it (or the cron's query finds it paid): poll GET /api/orders/{id}.",
  security: bearerAuth,
  request: {
    params: orderIdParamSchema,
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: payOrderBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(payAnswerSchema), "Paid (wallet), or a WeChat Pay payment to complete"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("ORDER_NOT_PENDING"),
    422: errorContent("WALLET_NOT_ALLOWED, INSUFFICIENT_FUNDS, WECHAT_PAY_NOT_CONFIGURED, WECHAT_PAY_FLOW_NOT_AVAILABLE or IDEMPOTENCY_KEY_REUSED"),
    502: errorContent("WECHAT_PAY_REFUSED"),
    503: errorContent("WECHAT_PAY_UNAVAILABLE: WeChat Pay did not answer clearly; send the same request again"),
  },
});

type PayableOrder = { kind: "recharge" | "task_budget"; amount: number; status: string; expires_at: number; description: string };
type PayContext = Context<OriginEnv, "/:id/pay">;

export const orderPaymentRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
orderPaymentRoutes.use("/:id/pay", signedInUser, idempotent((c) => c.var.user.id));

orderPaymentRoutes.openapi(pay, async (c) => {
  const { id } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const order = await db
    .prepare("SELECT kind, amount, status, expires_at, description FROM orders WHERE id = ?1 AND user_id = ?2")
    .bind(id, c.var.user.id)
    .first<PayableOrder>();
  if (!order) throw new ApiError("NOT_FOUND", "There is no such order.");
  if (body.method === "wechat") {
    const wechat = await c.var.wechatPay();
    if (!wechat) {
      return c.var.idempotency.refuse(new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here.", "method"), { lasting: false });
    }
    if (!wechat.flows.includes(body.flow)) {
      return c.var.idempotency.refuse(new ApiError("WECHAT_PAY_FLOW_NOT_AVAILABLE", `WeChat Pay's ${body.flow} flow is not offered here.`, "flow"), {
        lasting: false,
      });
    }
    if (order.status !== "pending" || order.expires_at <= now) {
      return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
    }
    const answer = await startWechatPayment(c, wechat, { id, ...order }, body.flow, body.flow === "jsapi" ? body.openid : null, now);
    return c.var.idempotency.commit([noteRemoteState(db, answer.paymentId, "open", now)], 201, { code: "SUCCESS" as const, data: answer });
  }
  if (order.kind === "recharge") {
    return c.var.idempotency.refuse(new ApiError("WALLET_NOT_ALLOWED", "A recharge is paid online, not from the wallet.", "method"));
  }
  if (order.status !== "pending" || order.expires_at <= now) {
    return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
  }
  return payFromWallet(c, id, order, now);
});

async function payFromWallet(c: PayContext, id: string, order: PayableOrder, now: number) {
  const db = c.env.DB;
  const user = c.var.user;
  const paymentId = `pay_${crypto.randomUUID()}`;
  const txId = `tx_${crypto.randomUUID()}`;
  const wallet = walletAccountOf(user.id);
  try {
    const answer = await c.var.idempotency.commit(
      [
        // The budget moves from the poster's available money into their held money.
        ...journalStatements(db, {
          id: txId,
          kind: "escrow_hold",
          at: now,
          postings: [
            { account: wallet, amount: -order.amount, bucket: "available" },
            { account: wallet, amount: order.amount, bucket: "held" },
          ],
        }),
        // Refused by trigger unless the order is still payable; one success per order by index.
        db
          .prepare(
            "INSERT INTO payment (id, order_id, method, status, amount, tx_id, created_at, updated_at) VALUES (?1, ?2, 'wallet', 'succeeded', ?3, ?4, ?5, ?5)",
          )
          .bind(paymentId, id, order.amount, txId, now),
        db.prepare("UPDATE orders SET status = 'paid', paid_at = ?1 WHERE id = ?2 AND status = 'pending'").bind(now, id),
        // The task opens with its budget in escrow.
        db
          .prepare(
            "UPDATE task SET status = 'open', escrow_remaining = escrow_remaining + ?1, opened_at = ?2 WHERE order_id = ?3 AND status = 'awaiting_payment'",
          )
          .bind(order.amount, now, id),
      ],
      201,
      {
        code: "SUCCESS" as const,
        data: { orderId: id, paymentId, method: "wallet" as const, amount: order.amount, status: "paid" as const, paidAt: new Date(now).toISOString() },
      },
    );
    // A WeChat Pay order started for this order must not be paid too: close it now (the
    // cron retries; a payment made meanwhile is refunded).
    const wechat = await c.var.wechatPay();
    if (wechat) await afterAnswer(c, "Closing the WeChat Pay order", () => reconcileWechatPayments(db, wechat, now, { orderId: id }));
    return answer;
  } catch (error) {
    if (isOverdraft(error)) {
      return c.var.idempotency.refuse(new ApiError("INSUFFICIENT_FUNDS", "Your available balance is not enough for this.", "method"), {
        lasting: false,
      });
    }
    if (error instanceof Error && /order is not payable|payment_one_success|orders: a paid or closed/.test(error.message)) {
      return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
    }
    throw error;
  }
}

// ——— WeChat Pay ———————————————————————————————————————————————————————————

const ipAddress = z.union([z.ipv4(), z.ipv6()]);

/**
 * The payer's address for H5's payer_client_ip: `CF-Connecting-IP` when Cloudflare set it,
 * else `X-Real-IP`, which the edge worker sets from its own `CF-Connecting-IP`.
 */
function payerAddress(c: PayContext, wechat: WechatPay): string | null {
  const raw = (c.req.header("CF-Connecting-IP") ?? c.req.header("X-Real-IP") ?? "").trim();
  if (ipAddress.safeParse(raw).success) return raw;
  // Local emulation may have no client address at all: the simulator takes loopback.
  return wechat.simulator ? "127.0.0.1" : null;
}

/** Local emulation: H5's link leads to the simulator's stand-in cashier, through the origin. */
export const simulatorCashierPath = "/api/payments/wechat/simulator/cashier";

/**
 * The page's own origin when it is a loopback one (the browser's `Origin`, which the edge
 * passes on), so that the stand-in cashier's link is absolute like WeChat Pay's; else "".
 */
function loopbackOrigin(c: PayContext): string {
  const origin = c.req.header("Origin") ?? "";
  return /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/.test(origin) ? origin : "";
}

const unavailable = () => new ApiError("WECHAT_PAY_UNAVAILABLE", "WeChat Pay did not answer clearly. Please try again.");

/**
 * Stores the payment (or reuses the one waiting), then asks WeChat Pay for the code, link or
 * JSAPI parameters. Every refusal here is temporary (not recorded against the key): a retry
 * reuses the same out_trade_no with identical parameters, which WeChat Pay accepts again.
 */
async function startWechatPayment(
  c: PayContext,
  wechat: WechatPay,
  order: PayableOrder & { id: string },
  flow: WechatPrepay["flow"],
  openid: string | null,
  now: number,
): Promise<WechatPrepay> {
  const db = c.env.DB;
  const clientIp = flow === "h5" ? payerAddress(c, wechat) : null;
  if (flow === "h5" && !clientIp) {
    throw new ApiError("BAD_REQUEST", "H5 needs the payer's address (CF-Connecting-IP or X-Real-IP), and none came with this request.", "flow");
  }
  const wanted = { flow, openid, clientIp };
  const sameRequest = (payment: WechatPaymentRow) =>
    payment.flow === wanted.flow && payment.openid === wanted.openid && payment.client_ip === wanted.clientIp;

  let payment = await findPendingWechatPayment(db, order.id);
  if (payment && !sameRequest(payment)) {
    // Another flow: WeChat Pay would refuse other parameters under the same out_trade_no, and
    // two open WeChat orders could both be paid. Close the waiting one first.
    const check = await checkPayment(db, wechat, { ...payment, order_status: "closed" }, now);
    if (check === "settled" || check === "refund_due") throw new ApiError("ORDER_NOT_PENDING", "This order was paid meanwhile.");
    if (check !== "closed") throw unavailable();
    payment = null;
  }
  if (!payment) {
    const paymentId = `pay_${crypto.randomUUID()}`;
    try {
      await insertWechatPayment(db, { id: paymentId, orderId: order.id, amount: order.amount, outTradeNo: newOutTradeNo(), flow, openid, clientIp, now }).run();
    } catch (error) {
      // A request at the same moment stored one first: use it if it asks the same.
      if (!(error instanceof Error && error.message.includes("UNIQUE constraint failed: payment.order_id"))) throw error;
    }
    payment = await findPendingWechatPayment(db, order.id);
    if (!payment || !sameRequest(payment)) throw unavailable();
  }

  const input: OrderInput = {
    outTradeNo: payment.out_trade_no,
    description: wechatDescription(order.description),
    amount: payment.amount,
    expiresAt: order.expires_at,
    attach: payment.id,
  };
  const common = {
    orderId: order.id,
    paymentId: payment.id,
    method: "wechat" as const,
    amount: payment.amount,
    status: "pending" as const,
    outTradeNo: payment.out_trade_no,
    expiresAt: new Date(order.expires_at).toISOString(),
  };
  const client = wechat.client;
  const created = await wechatCall<WechatPrepay>(async () => {
    const toAnswer = <T>(outcome: WechatPayOutcome<T>, shape: (data: T) => WechatPrepay): WechatPayOutcome<WechatPrepay> =>
      outcome.outcome === "ok" ? { ...outcome, data: shape(outcome.data) } : outcome;
    if (flow === "native") return toAnswer(await client.createNativeOrder(input), (data) => ({ ...common, flow, codeUrl: data.codeUrl }));
    if (flow === "h5") {
      return toAnswer(await client.createH5Order({ ...input, payerClientIp: clientIp! }), (data) => ({
        ...common,
        flow,
        h5Url: wechat.simulator ? `${loopbackOrigin(c)}${simulatorCashierPath}${new URL(data.h5Url).search}` : data.h5Url,
      }));
    }
    return toAnswer(await client.createJsapiOrder({ ...input, openid: openid! }), (data) => ({ ...common, flow: "jsapi", jsapi: data.payParams }));
  });
  if (created.outcome === "ok") return created.data;
  if (created.outcome === "unknown") throw unavailable();
  if (created.code === "ORDER_PAID") {
    // Paid already (the notification is on its way): settle it from a query now.
    const check = await checkPayment(db, wechat, payment, now);
    throw check === "settled" || check === "refund_due" ? new ApiError("ORDER_NOT_PENDING", "This order is already paid.") : unavailable();
  }
  if (created.code === "ORDER_CLOSED") {
    await markPaymentFailed(db, payment.id, "closed", now);
    throw unavailable();
  }
  if (created.retryable) throw unavailable();
  // Refused for good (parameters, account, signature): this out_trade_no is given up; if
  // WeChat Pay took money under it after all, that payment is refunded.
  await markPaymentFailed(db, payment.id, "refused", now);
  console.error(`WeChat Pay refused order ${payment.out_trade_no}: ${created.status} ${created.code} ${created.message}`);
  Sentry.captureMessage(`WeChat Pay refused to create an order: ${created.code}`, "error");
  throw new ApiError("WECHAT_PAY_REFUSED", "WeChat Pay could not start this payment.");
}
