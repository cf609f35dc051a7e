import type { z } from "zod";
import type { createRechargeOrderBodySchema, Order, OrderDetail, orderListQuerySchema, orderPageSchema } from "#contract/orders";
import type { PaymentReceipt, payOrderBodySchema, walletPayBodySchema, wechatPayBodySchema, WechatPrepay } from "#contract/payments";
import { orderDetailSchemas } from "../contract-schemas";
import { apiPath, withQuery } from "./api-path";
import type { SignedInApi } from "./client";

export type OrderPage = z.infer<typeof orderPageSchema>;
type PayOrderBody = z.input<typeof payOrderBodySchema>;

/** One of my orders; parsed, since the payment screens act on its status and history. */
export async function getOrder(api: SignedInApi, id: string): Promise<OrderDetail> {
  const [{ orderDetailSchema }, order] = await Promise.all([orderDetailSchemas.load(), api.get<unknown>(apiPath`/api/orders/${id}`)]);
  return orderDetailSchema.parse(order);
}

export function listOrders(api: SignedInApi, query: Partial<z.infer<typeof orderListQuerySchema>>): Promise<OrderPage> {
  return api.get<OrderPage>(withQuery("/api/orders", query));
}

export function createRechargeOrder(
  api: SignedInApi,
  body: z.input<typeof createRechargeOrderBodySchema>,
  idempotencyKey: string,
): Promise<Order> {
  return api.post<Order>("/api/orders/recharge", body, idempotencyKey);
}

export function cancelOrder(api: SignedInApi, id: string, idempotencyKey: string): Promise<OrderDetail> {
  return api.post<OrderDetail>(apiPath`/api/orders/${id}/cancel`, {}, idempotencyKey);
}

/** From the wallet: paid at once. With WeChat Pay: a payment for the payer to complete. */
export function payOrder(
  api: SignedInApi,
  id: string,
  body: z.input<typeof walletPayBodySchema>,
  idempotencyKey: string,
): Promise<PaymentReceipt>;
export function payOrder(
  api: SignedInApi,
  id: string,
  body: z.input<typeof wechatPayBodySchema>,
  idempotencyKey: string,
): Promise<WechatPrepay>;
export function payOrder(api: SignedInApi, id: string, body: PayOrderBody, idempotencyKey: string): Promise<PaymentReceipt | WechatPrepay> {
  return api.post<PaymentReceipt | WechatPrepay>(apiPath`/api/orders/${id}/pay`, body, idempotencyKey);
}
