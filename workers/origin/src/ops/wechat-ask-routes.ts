/**
 * "Ask WeChat Pay now" on an order's page (docs/decisions/015-operator-refunds.md): the cron's
 * check of one order, at once, for any operator. It moves money only as the cron or a
 * notification would (a payment WeChat Pay reports paid is settled), so its audit row follows
 * the asking and records what WeChat Pay said.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { opsOrderIdParamSchema, opsWechatAskAnswerSchema } from "#contract/ops-orders";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { askWechatPayNow } from "../wechat-pay/reconcile/ask-now";
import { auditStatement } from "./audit";
import { operatorWith } from "./operator-access";
import { operatorActor, requestIdOf } from "./operator-actor";
import { orderStory } from "./order-story";
import { forbiddenUnless } from "./route-answers";

/** One ask per order in this many seconds: WeChat Pay limits how often a merchant may query. */
const askIntervalSeconds = 10;

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
  },
});

const auditAction = "order.ask_wechat_pay";

export const wechatAskRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
wechatAskRoutes.use("/:id/ask-wechat-pay", operatorWith("askWechatPay"));

wechatAskRoutes.openapi(ask, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const [order, lastAsk] = await db.batch<{ id?: string; at?: number }>([
    db.prepare("SELECT id FROM orders WHERE id = ?1").bind(id),
    // audit_log_object (object_type, object_id).
    db.prepare("SELECT max(at) AS at FROM audit_log WHERE object_type = 'order' AND object_id = ?1 AND action = ?2").bind(id, auditAction),
  ]);
  if (!order?.results[0]) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  const lastAt = lastAsk?.results[0]?.at;
  if (typeof lastAt === "number" && now - lastAt < askIntervalSeconds * 1000) {
    const seconds = Math.max(1, Math.ceil((lastAt + askIntervalSeconds * 1000 - now) / 1000));
    throw new ApiError("RATE_LIMITED", `WeChat Pay was asked about this order just now. Try again in ${seconds} seconds.`, undefined, {
      "Retry-After": String(seconds),
    });
  }
  const wechat = await c.var.wechatPay();
  if (!wechat) throw new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here.");
  const asked = await askWechatPayNow(db, wechat, id, now);
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
  const story = await orderStory(db, id);
  if (!story) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  return c.json({ code: "SUCCESS" as const, data: { asked, story } }, 200);
});
