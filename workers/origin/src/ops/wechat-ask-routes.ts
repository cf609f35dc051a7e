/**
 * "Ask WeChat Pay now" on an order's page (docs/decisions/015-operator-refunds.md): the cron's
 * check of one order, at once, for any operator. It moves money only as the cron or a
 * notification would (a payment WeChat Pay reports paid is settled), so its audit row follows
 * the asking and records what WeChat Pay said.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { type OpsWechatAsk, opsOrderIdParamSchema, opsWechatAskAnswerSchema } from "#contract/ops-orders";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import * as Sentry from "../error-reporting";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { isSettlementRace } from "../wechat-pay/payments/settle-success";
import { askWechatPayNow } from "../wechat-pay/reconcile/ask-now";
import { auditStatement } from "./audit";
import { askIntervalSeconds } from "./wechat-ask-interval";
import { operatorWith } from "./operator-access";
import { operatorActor, requestIdOf } from "./operator-actor";
import { orderStory } from "./order-story";
import { forbiddenUnless } from "./route-answers";

const ask = createRoute({
  method: "post",
  path: "/{id}/ask-wechat-pay",
  summary:
    "Ask WeChat Pay now about the order's payments and open refunds, as the cron would; settles a payment WeChat Pay reports paid (support and up; audited; once per order in 10 seconds)",
  security: operatorSession,
  request: { params: opsOrderIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(opsWechatAskAnswerSchema), "What WeChat Pay said, and the order's story afterwards"),
    400: errorContent("BAD_REQUEST: not an order id (field id)"),
    403: forbiddenUnless("askWechatPay: support and up"),
    404: errorContent("NOT_FOUND: there is no such order, or not signed in as an operator"),
    422: errorContent("WECHAT_PAY_NOT_CONFIGURED: this Paydesk has no WeChat Pay merchant"),
    429: errorContent("RATE_LIMITED: the order was asked about less than 10 seconds ago (Retry-After)"),
    503: errorContent("WECHAT_PAY_UNAVAILABLE: what WeChat Pay said could not be recorded just now (reported); ask again"),
  },
});

const auditAction = "order.ask_wechat_pay";

/**
 * Takes this order's next ask, or refuses with 429: one conditional UPSERT, so of two
 * operators asking at once exactly one goes ahead.
 */
async function reserveAsk(db: D1Database, orderId: string, now: number): Promise<void> {
  const interval = askIntervalSeconds * 1000;
  const taken = await db
    .prepare(
      `INSERT INTO wechat_ask (order_id, asked_at) VALUES (?1, ?2)
       ON CONFLICT (order_id) DO UPDATE SET asked_at = excluded.asked_at WHERE asked_at <= ?2 - ?3 RETURNING asked_at`,
    )
    .bind(orderId, now, interval)
    .first();
  if (taken) return;
  const lastAt = (await db.prepare("SELECT asked_at FROM wechat_ask WHERE order_id = ?1").bind(orderId).first<number>("asked_at")) ?? now;
  const seconds = Math.max(1, Math.ceil((lastAt + interval - now) / 1000));
  throw new ApiError("RATE_LIMITED", `WeChat Pay was asked about this order just now. Try again in ${seconds} seconds.`, undefined, {
    "Retry-After": String(seconds),
  });
}

export const wechatAskRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
wechatAskRoutes.use("/:id/ask-wechat-pay", operatorWith("askWechatPay"));

wechatAskRoutes.openapi(ask, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const order = await db.prepare("SELECT id FROM orders WHERE id = ?1").bind(id).first();
  if (!order) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  const wechat = await c.var.wechatPay();
  if (!wechat) throw new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here.");
  await reserveAsk(db, id, now);
  let asked: OpsWechatAsk;
  try {
    asked = await askWechatPayNow(db, wechat, id, now);
  } catch (error) {
    // A settlement that kept racing the cron or a notification: the next ask reads what won.
    // Anything else is not this route's to explain (500, reported).
    if (!isSettlementRace(error)) throw error;
    console.error(`Asking WeChat Pay about order ${id} failed`, error);
    Sentry.captureException(error, { tags: { order: id } });
    throw new ApiError(
      "WECHAT_PAY_UNAVAILABLE",
      `WeChat Pay's answer could not be recorded just now. Ask again in ${askIntervalSeconds} seconds.`,
    );
  }
  await auditStatement(db, {
    actor: operatorActor(c),
    action: auditAction,
    object: { type: "order", id },
    before: { payments: asked.payments.map((p) => [p.outTradeNo, p.before]), refunds: asked.refunds.map((r) => [r.outRefundNo, r.before]) },
    after: {
      payments: asked.payments.map((p) => [p.outTradeNo, p.after, p.outcome, p.tradeState]),
      refunds: asked.refunds.map((r) => [r.outRefundNo, r.after]),
    },
    requestId: requestIdOf(c),
    at: now,
  }).run();
  const story = await orderStory(db, id, c.var.operator.userId);
  if (!story) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  return c.json({ code: "SUCCESS" as const, data: { asked, story } }, 200);
});
