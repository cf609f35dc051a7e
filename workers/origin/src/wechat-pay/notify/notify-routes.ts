/**
 * WeChat Pay's side of the origin: the public notification paths WeChat Pay posts to
 * (outside the pages' contract: WeChat Pay's own format), whether WeChat Pay is offered,
 * and — only in local emulation — a payer stand-in that pays through the simulator.
 */
import * as Sentry from "@sentry/cloudflare";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { simulatedPaymentSchema, simulatePaymentBodySchema, wechatPayConfigAnswerSchema } from "#contract/payments";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { afterAnswer } from "./after-answer";
import { applyRefundResult, findPendingWechatPayment, findRefund, requestRefund, settleWechatSuccess } from "./wechat-payments";

const config = createRoute({
  method: "get",
  path: "/config",
  summary: "Whether WeChat Pay is offered here, and with which flows",
  responses: { 200: jsonContent(successEnvelope(wechatPayConfigAnswerSchema), "WeChat Pay's availability") },
});

const simulatePay = createRoute({
  method: "post",
  path: "/simulator/pay",
  summary: "Local emulation only: the payer scans and pays the order's WeChat Pay payment in the simulator",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: simulatePaymentBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(simulatedPaymentSchema), "Paid at the simulator; the order is paid when its notification arrives"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND: no simulator here, or no WeChat Pay payment waiting for this order"),
    409: errorContent("ORDER_NOT_PENDING"),
  },
});

export const wechatRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
wechatRoutes.use("/simulator/pay", signedInUser);

wechatRoutes.openapi(config, async (c) => {
  const wechat = await c.var.wechatPay();
  return c.json(
    {
      code: "SUCCESS" as const,
      data: {
        configured: wechat !== null,
        flows: wechat?.flows ?? [],
        jsapiAppId: wechat?.flows.includes("jsapi") ? wechat.appid : null,
        simulator: wechat?.simulator != null,
      },
    },
    200,
  );
});

wechatRoutes.openapi(simulatePay, async (c) => {
  const wechat = await c.var.wechatPay();
  if (!wechat?.simulator) throw new ApiError("NOT_FOUND", `No API route ${c.req.method} ${c.req.path}.`);
  const { orderId } = c.req.valid("json");
  const payment = await findPendingWechatPayment(c.env.DB, orderId);
  if (!payment || payment.user_id !== c.var.user.id) throw new ApiError("NOT_FOUND", "No WeChat Pay payment is waiting for this order.");
  const url = `https://wechatpay-simulator.internal/__simulator/orders/${encodeURIComponent(payment.out_trade_no)}/pay?mchid=${encodeURIComponent(wechat.client.config.mchid)}`;
  const answer = await wechat.simulator.fetch(
    new Request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payment.openid ? { openid: payment.openid } : {}) }),
  );
  if (answer.status === 404) throw new ApiError("NOT_FOUND", "WeChat Pay has no order for this payment yet.");
  if (!answer.ok) throw new ApiError("ORDER_NOT_PENDING", `The simulator refused: ${((await answer.json().catch(() => ({}))) as { error?: string }).error ?? answer.status}.`);
  return c.json({ code: "SUCCESS" as const, data: { orderId, outTradeNo: payment.out_trade_no, paid: true as const } }, 200);
});

// ——— Local emulation: H5's cashier ————————————————————————————————————————————

/** A same-site path, or a loopback http(s) URL: where the stand-in cashier may send the browser back. */
function safeReturn(target: string | undefined): string | null {
  if (!target) return null;
  if (/^\/(?![/\\])/.test(target)) return target;
  try {
    const url = new URL(target);
    return (url.protocol === "http:" || url.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) ? url.toString() : null;
  } catch {
    return null;
  }
}

type SimulatedOrder = { outTradeNo: string; prepayId: string; description: string; total: number; tradeState: string };

async function simulatedOrderByPrepayId(simulator: Fetcher, prepayId: string): Promise<SimulatedOrder | null> {
  const state = (await (await simulator.fetch("http://wechatpay-simulator.internal/__simulator/state")).json()) as { orders: Record<string, SimulatedOrder> };
  return Object.values(state.orders).find((order) => order.prepayId === prepayId) ?? null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * What WeChat Pay's H5 cashier is to a phone's browser, for local emulation: the order, and a
 * button that pays it (as the payer confirming in WeChat), then back to `redirect_url` —
 * which WeChat Pay also does whether or not the payer paid.
 */
async function cashier(c: Context<OriginEnv>): Promise<Response> {
  const wechat = await c.var.wechatPay();
  if (!wechat?.simulator) throw new ApiError("NOT_FOUND", `No API route ${c.req.method} ${c.req.path}.`);
  const prepayId = c.req.query("prepay_id") ?? "";
  const order = await simulatedOrderByPrepayId(wechat.simulator, prepayId);
  const back = safeReturn(c.req.query("redirect_url"));
  if (c.req.method === "POST" && order) {
    await wechat.simulator.fetch(`http://wechatpay-simulator.internal/__simulator/orders/${encodeURIComponent(order.outTradeNo)}/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    const here = new URL(c.req.url);
    return c.redirect(back ?? `${here.pathname}${here.search}`, 303);
  }
  const body = order
    ? `<h1>WeChat Pay (simulator)</h1><p>${escapeHtml(order.description)}</p><p><strong>¥${(order.total / 100).toFixed(2)}</strong> — ${escapeHtml(order.tradeState)}</p>
<form method="post"><button type="submit"${order.tradeState === "NOTPAY" ? "" : " disabled"}>Pay (simulated)</button></form>
${back ? `<p><a href="${escapeHtml(back)}">Back to Paydesk</a></p>` : ""}`
    : "<h1>WeChat Pay (simulator)</h1><p>This payment link is unknown or has expired.</p>";
  return c.html(`<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>WeChat Pay (simulator)</title>${body}</html>`, order ? 200 : 404);
}

wechatRoutes.get("/simulator/cashier", cashier);
wechatRoutes.post("/simulator/cashier", cashier);
for (const method of ["get", "post"] as const) {
  wechatRoutes.openAPIRegistry.registerPath({
    method,
    path: "/simulator/cashier",
    summary: method === "get" ? "Local emulation only: the stand-in for H5's cashier page (h5Url leads here)" : "Local emulation only: pay at the stand-in cashier, then back to redirect_url",
    request: { query: z.object({ prepay_id: z.string(), redirect_url: z.string().optional() }) },
    responses: method === "get" ? { 200: { description: "An HTML page" }, 404: { description: "No simulator here, or an unknown link" } } : { 303: { description: "Paid; back to redirect_url" }, 404: { description: "No simulator here" } },
  });
}

// ——— Notifications ————————————————————————————————————————————————————————

/** Not received: WeChat Pay sends it again (15 s, 15 s, 30 s, 3 min … for about a day). */
function notReceived(status: 400 | 401 | 404 | 422 | 500 | 503, message = "失败"): Response {
  return Response.json({ code: "FAIL", message }, { status });
}

type Outcome =
  | "settled"
  | "refund_due"
  | "already_settled"
  | "ignored"
  | "unknown_order"
  | "amount_mismatch"
  | "refund_recorded"
  | "unknown_refund";

async function recordOutcome(db: D1Database, id: string, outcome: Outcome): Promise<void> {
  // The first decision stays; a later delivery may only resolve one that decided nothing.
  await db
    .prepare("UPDATE wechat_notification SET outcome = ?1 WHERE id = ?2 AND outcome IN ('received', 'unknown_order', 'amount_mismatch', 'unknown_refund')")
    .bind(outcome, id)
    .run();
}

/**
 * POST /api/payments/wechat/notify and /refund-notify. The signature (over the raw body,
 * timestamp within 5 minutes; probes `WECHATPAY/SIGNTEST/…` refused) and the resource (AEAD
 * with the APIv3 key, mchid/appid ours) are checked first; a notification that fails is
 * answered 401 and not stored. A verified one is stored (counted per delivery), then acted
 * on — once, whatever the number of deliveries — and answered 204 only after that.
 */
async function receiveNotification(c: Context<OriginEnv>): Promise<Response> {
  const wechat = await c.var.wechatPay();
  if (!wechat) return notReceived(503, "WeChat Pay is not configured");
  const raw = await c.req.text();
  const read = await wechat.client.readNotification(c.req.raw.headers, raw).catch(() => ({ ok: false as const, reason: "malformed_body" as const }));
  if (!read.ok) {
    console.warn(`Refused a WeChat Pay notification: ${read.reason}`);
    return notReceived(401, "签名验证失败");
  }
  const db = c.env.DB;
  const now = c.var.clock.now();
  const { notification } = read;
  const resource = read.kind === "transaction" ? read.transaction : read.refund;
  await db
    .prepare(
      `INSERT INTO wechat_notification (id, event_type, resource_type, out_trade_no, out_refund_no, resource, first_received_at, last_received_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
       ON CONFLICT (id) DO UPDATE SET deliveries = deliveries + 1, last_received_at = excluded.last_received_at`,
    )
    .bind(
      notification.id.slice(0, 128),
      notification.event_type.slice(0, 64),
      read.kind,
      resource.out_trade_no,
      read.kind === "refund" ? read.refund.out_refund_no : null,
      JSON.stringify(resource).slice(0, 16_384),
      now,
    )
    .run();

  if (read.kind === "transaction") {
    const transaction = read.transaction;
    if (notification.event_type !== "TRANSACTION.SUCCESS" || transaction.trade_state !== "SUCCESS") {
      await recordOutcome(db, notification.id, "ignored");
      return new Response(null, { status: 204 });
    }
    const settlement = await settleWechatSuccess(db, transaction, now);
    switch (settlement.outcome) {
      case "unknown_order":
        await recordOutcome(db, notification.id, "unknown_order");
        Sentry.captureMessage(`WeChat Pay notified a payment of an unknown order ${transaction.out_trade_no}`, "error");
        return notReceived(404, "订单不存在");
      case "amount_mismatch":
        await recordOutcome(db, notification.id, "amount_mismatch");
        Sentry.captureMessage(`WeChat Pay notified another amount for ${transaction.out_trade_no}: not settled`, "error");
        return notReceived(422, "金额不一致");
      case "refund_due":
        await recordOutcome(db, notification.id, "refund_due");
        await afterAnswer(c, "WeChat Pay refund", () => requestRefund(db, wechat.client, settlement.refund, now));
        return new Response(null, { status: 204 });
      case "settled":
        await recordOutcome(db, notification.id, "settled");
        return new Response(null, { status: 204 });
      default:
        await recordOutcome(db, notification.id, "already_settled");
        return new Response(null, { status: 204 });
    }
  }

  const notice = read.refund;
  const refund = await findRefund(db, notice.out_refund_no);
  if (!refund || refund.out_trade_no !== notice.out_trade_no) {
    await recordOutcome(db, notification.id, "unknown_refund");
    Sentry.captureMessage(`WeChat Pay notified an unknown refund ${notice.out_refund_no}`, "error");
    return notReceived(404, "退款单不存在");
  }
  if (notice.amount.refund !== refund.amount) {
    await recordOutcome(db, notification.id, "amount_mismatch");
    Sentry.captureMessage(`WeChat Pay notified another amount for refund ${notice.out_refund_no}`, "error");
    return notReceived(422, "金额不一致");
  }
  await applyRefundResult(db, notice.out_refund_no, { status: notice.refund_status, out_refund_no: notice.out_refund_no, refund_id: notice.refund_id }, now);
  await recordOutcome(db, notification.id, "refund_recorded");
  return new Response(null, { status: 204 });
}

async function notificationRoute(c: Context<OriginEnv>): Promise<Response> {
  try {
    return await receiveNotification(c);
  } catch (error) {
    // Not stored or not acted on: WeChat Pay must send it again.
    console.error("A WeChat Pay notification could not be handled", error);
    Sentry.captureException(error);
    return notReceived(500);
  }
}

wechatRoutes.post("/notify", notificationRoute);
wechatRoutes.post("/refund-notify", notificationRoute);

// Documented for operators (they register the URL at WeChat Pay); the body is WeChat Pay's
// own signed envelope, read raw, so these routes validate it themselves.
const notificationEnvelope = z.looseObject({
  id: z.string(),
  create_time: z.string(),
  event_type: z.string(),
  resource_type: z.string(),
  resource: z.looseObject({ algorithm: z.string(), ciphertext: z.string(), nonce: z.string(), associated_data: z.string().optional() }),
});
const failAnswer = z.strictObject({ code: z.literal("FAIL"), message: z.string() });
for (const [path, what] of [
  ["/notify", "payment (TRANSACTION.SUCCESS)"],
  ["/refund-notify", "refund (REFUND.SUCCESS | ABNORMAL | CLOSED)"],
] as const) {
  wechatRoutes.openAPIRegistry.registerPath({
    method: "post",
    path,
    summary: `WeChat Pay's ${what} notifications (set WECHATPAY_NOTIFY_URL to …/notify)`,
    description:
      "Called by WeChat Pay, not by pages. Headers Wechatpay-Timestamp, -Nonce, -Serial, -Signature (WECHATPAY2-SHA256-RSA2048 over the raw body). " +
      "204 once stored and acted on (duplicates too); anything else makes WeChat Pay send it again.",
    request: { body: { content: { "application/json": { schema: notificationEnvelope } }, required: true } },
    responses: {
      204: { description: "Received" },
      401: jsonContent(failAnswer, "Signature, timestamp or resource not valid (probe signatures too)"),
      404: jsonContent(failAnswer, "An order or refund Paydesk does not know"),
      422: jsonContent(failAnswer, "The amount is not the order's"),
      500: jsonContent(failAnswer, "Not stored; send again"),
      503: jsonContent(failAnswer, "WeChat Pay is not configured here"),
    },
  });
}
