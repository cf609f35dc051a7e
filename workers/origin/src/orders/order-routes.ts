import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import {
  createRechargeOrderBodySchema,
  orderDetailSchema,
  orderIdParamSchema,
  orderListQuerySchema,
  orderPageSchema,
  orderSchema,
  type OrderDetail,
} from "#contract/orders";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import {
  bearerAuth,
  errorContent,
  idempotencyKeyHeader,
  jsonContent,
  optionalIdempotencyKeyHeader,
  successEnvelope,
} from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotent, idempotentWhenKeyed } from "../idempotency/idempotency";
import { limitsOf, outsideDeployRange, timeLimitsOf } from "../deploy-limits/deploy-limits";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { closeWechatPayAfterAnswer } from "../wechat-pay/reconcile/close-after-answer";
import { findOrderDetail, newPendingOrder, orderColumns, orderFromRow, type OrderRow } from "./order-rows";

const createRecharge = createRoute({
  method: "post",
  path: "/recharge",
  summary: "Create a recharge order (paid online)",
  security: bearerAuth,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: createRechargeOrderBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(orderSchema), "The new pending order"),
    400: errorContent("A field is not valid, or the amount is outside this deploy's recharge limits (GET /api/limits)"),
    401: errorContent("UNAUTHENTICATED"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

const list = createRoute({
  method: "get",
  path: "/",
  summary: "My orders, newest first",
  security: bearerAuth,
  request: { query: orderListQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(orderPageSchema), "A page of orders"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const detail = createRoute({
  method: "get",
  path: "/{id}",
  summary: "One of my orders, with its status history and payment attempts",
  security: bearerAuth,
  request: { params: orderIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(orderDetailSchema), "The order"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
  },
});

const cancel = createRoute({
  method: "post",
  path: "/{id}/cancel",
  summary: "Cancel a pending order (cancelling a cancelled order answers it again)",
  security: bearerAuth,
  request: { params: orderIdParamSchema, headers: optionalIdempotencyKeyHeader },
  responses: {
    200: jsonContent(successEnvelope(orderDetailSchema), "The closed order"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("ORDER_NOT_PENDING"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

function encodeCursor(row: { created_at: number; id: string }): string {
  return btoa(`${row.created_at}:${row.id}`).replace(/=+$/, "");
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = atob(cursor).split(":");
    if (!createdAt || !id || !/^\d+$/.test(createdAt)) throw new Error("malformed");
    return { createdAt: Number(createdAt), id };
  } catch {
    throw new ApiError("BAD_REQUEST", "The cursor is not one this API gave.", "cursor");
  }
}

export const orderRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
orderRoutes.use("*", signedInUser);
orderRoutes.use(
  "/recharge",
  idempotent((c) => c.var.user.id),
  doorLimit("orders"),
);
orderRoutes.use(
  "/:id/cancel",
  idempotentWhenKeyed((c) => c.var.user.id),
);

orderRoutes.openapi(createRecharge, async (c) => {
  const { amount, referrer } = c.req.valid("json");
  const outside = outsideDeployRange(amount, limitsOf(c.env).recharge, "amount");
  if (outside) return c.var.idempotency.refuse(outside, { lasting: false });
  const order = newPendingOrder(c.env.DB, {
    userId: c.var.user.id,
    kind: "recharge",
    amount,
    description: `Wallet recharge of ¥${(amount / 100).toFixed(2)}`,
    referrer,
    now: c.var.clock.now(),
    payMinutes: timeLimitsOf(c.env).order.payMinutes,
  });
  return c.var.idempotency.commit([order.insert], 201, { code: "SUCCESS" as const, data: orderFromRow(order.row) });
});

orderRoutes.openapi(list, async (c) => {
  const { status, limit, cursor } = c.req.valid("query");
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await c.env.DB.prepare(
    `SELECT ${orderColumns} FROM orders
     WHERE user_id = ?1 AND (?2 IS NULL OR status = ?2)
       AND (?3 IS NULL OR created_at < ?3 OR (created_at = ?3 AND id < ?4))
     ORDER BY created_at DESC, id DESC LIMIT ?5`,
  )
    .bind(c.var.user.id, status ?? null, after?.createdAt ?? null, after?.id ?? "", limit + 1)
    .all<OrderRow>();
  const page = rows.results.slice(0, limit);
  const last = page.at(-1);
  return c.json(
    {
      code: "SUCCESS" as const,
      data: { orders: page.map(orderFromRow), nextCursor: rows.results.length > limit && last ? encodeCursor(last) : null },
    },
    200,
  );
});

orderRoutes.openapi(detail, async (c) => {
  const order = await findOrderDetail(c.env.DB, c.var.user.id, c.req.valid("param").id);
  if (!order) throw new ApiError("NOT_FOUND", "There is no such order.");
  return c.json({ code: "SUCCESS" as const, data: order }, 200);
});

orderRoutes.openapi(cancel, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const userId = c.var.user.id;
  const order = await findOrderDetail(db, userId, id);
  if (!order) throw new ApiError("NOT_FOUND", "There is no such order.");
  // Cancelling a cancelled order answers it again.
  if (order.status === "closed" && order.closeReason === "cancelled")
    return c.var.idempotency.commit([], 200, { code: "SUCCESS" as const, data: order });
  if (order.status !== "pending") return c.var.idempotency.refuse(orderNotPending(order));
  const at = new Date(now).toISOString();
  const cancelled: OrderDetail = {
    ...order,
    status: "closed",
    closeReason: "cancelled",
    closedAt: at,
    history: [...order.history, { status: "closed", reason: "cancelled", at }],
  };
  try {
    // Unconditional on the status on purpose: trigger `orders_final` refuses to change a
    // paid or closed order, so the batch (and the answer recorded with it) rolls back.
    const answer = await c.var.idempotency.commit(
      [
        db
          .prepare("UPDATE orders SET status = 'closed', close_reason = 'cancelled', closed_at = ?1 WHERE id = ?2 AND user_id = ?3")
          .bind(now, id, userId),
      ],
      200,
      { code: "SUCCESS" as const, data: cancelled },
    );
    await closeWechatPayAfterAnswer(c, id, now);
    return answer;
  } catch (error) {
    if (!(error instanceof Error && error.message.includes("a paid or closed order does not change"))) throw error;
    const finished = await findOrderDetail(db, userId, id);
    if (finished?.status === "closed" && finished.closeReason === "cancelled") {
      return c.var.idempotency.commit([], 200, { code: "SUCCESS" as const, data: finished });
    }
    return c.var.idempotency.refuse(orderNotPending(finished ?? order));
  }
});

function orderNotPending(order: { status: OrderDetail["status"] }): ApiError {
  return new ApiError("ORDER_NOT_PENDING", order.status === "paid" ? "This order is already paid." : "This order has already closed.");
}
