import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { orderIdParamSchema } from "../../../../app/api/orders";
import { payOrderBodySchema, paymentReceiptSchema } from "../../../../app/api/tasks";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "../http/openapi-routes";
import { validationHook } from "../http/validation";
import { idempotent } from "../idempotency/idempotency";
import { isOverdraft, journalStatements, walletAccountOf } from "../ledger/journal";
import type { OriginEnv } from "../origin-env";

const pay = createRoute({
  method: "post",
  path: "/{id}/pay",
  summary: "Pay an order from the wallet (task budgets; a recharge is paid online)",
  security: bearerAuth,
  request: {
    params: orderIdParamSchema,
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: payOrderBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(paymentReceiptSchema), "Paid"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("ORDER_NOT_PENDING"),
    422: errorContent("WALLET_NOT_ALLOWED, INSUFFICIENT_FUNDS or IDEMPOTENCY_KEY_REUSED"),
  },
});

export const orderPaymentRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
orderPaymentRoutes.use("/:id/pay", signedInUser, idempotent((c) => c.var.user.id));

orderPaymentRoutes.openapi(pay, async (c) => {
  const { id } = c.req.valid("param");
  const user = c.var.user;
  const db = c.env.DB;
  const now = c.var.clock.now();
  const order = await db
    .prepare("SELECT kind, amount, status, expires_at FROM orders WHERE id = ?1 AND user_id = ?2")
    .bind(id, user.id)
    .first<{ kind: "recharge" | "task_budget"; amount: number; status: string; expires_at: number }>();
  if (!order) throw new ApiError("NOT_FOUND", "There is no such order.");
  if (order.kind === "recharge") {
    return c.var.idempotency.refuse(new ApiError("WALLET_NOT_ALLOWED", "A recharge is paid online, not from the wallet.", "method"));
  }
  if (order.status !== "pending" || order.expires_at <= now) {
    return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
  }

  const paymentId = `pay_${crypto.randomUUID()}`;
  const txId = `tx_${crypto.randomUUID()}`;
  const wallet = walletAccountOf(user.id);
  try {
    return await c.var.idempotency.commit(
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
});
