/**
 * POST /api/orders/{id}/pay: an order paid from the wallet (task budgets) at once, or a
 * WeChat Pay payment started for it. The methods live with their money: the wallet here,
 * WeChat Pay in wechat-pay/payments.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { orderIdParamSchema } from "#contract/orders";
import { payAnswerSchema, payOrderBodySchema } from "#contract/payments";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotent } from "../idempotency/idempotency";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { payWithWechat } from "../wechat-pay/payments/start-payment";
import { findPayableOrder, isPayable } from "./payable-order";
import { payFromWallet } from "./wallet-payment";

const pay = createRoute({
  method: "post",
  path: "/{id}/pay",
  summary: "Pay an order: from the wallet (task budgets) at once, or start a WeChat Pay payment (Native, H5, JSAPI)",
  description:
    "WeChat Pay: the payment is stored before WeChat Pay is asked; a repeated request for the same pending order and flow reuses its out_trade_no (WeChat Pay hands out a fresh code). " +
    "JSAPI pays with the openid WeChat's sign-in gave for this person. " +
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
    409: errorContent(
      "ORDER_NOT_PENDING; PAYMENT_STARTING: a WeChat Pay payment of this order in another flow is still being created at WeChat Pay (try again in a few seconds); " +
        "or WECHAT_SIGN_IN_NEEDED: JSAPI needs WeChat's sign-in first (POST /api/payments/wechat/sign-in)",
    ),
    422: errorContent(
      "WALLET_NOT_ALLOWED, INSUFFICIENT_FUNDS, WECHAT_PAY_NOT_CONFIGURED, WECHAT_PAY_FLOW_NOT_AVAILABLE or IDEMPOTENCY_KEY_REUSED",
    ),
    502: errorContent("WECHAT_PAY_REFUSED"),
    503: errorContent("WECHAT_PAY_UNAVAILABLE: WeChat Pay did not answer clearly; send the same request again"),
  },
});

export const orderPayRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
orderPayRoutes.use(
  "/:id/pay",
  signedInUser,
  idempotent((c) => c.var.user.id),
  doorLimit("orders"),
);

orderPayRoutes.openapi(pay, async (c) => {
  const { id } = c.req.valid("param");
  const body = c.req.valid("json");
  const now = c.var.clock.now();
  const order = await findPayableOrder(c.env.DB, id, c.var.user.id);
  if (!order) throw new ApiError("NOT_FOUND", "There is no such order.");
  if (body.method === "wechat") return payWithWechat(c, order, body, now);
  if (order.kind === "recharge") {
    return c.var.idempotency.refuse(new ApiError("WALLET_NOT_ALLOWED", "A recharge is paid online, not from the wallet.", "method"));
  }
  if (!isPayable(order, now)) {
    return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
  }
  return payFromWallet(c, order, now);
});
