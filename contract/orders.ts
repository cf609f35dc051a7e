import { pageCursorSchema } from "./openapi";
import { z } from "zod";
import { defaultLimits } from "./money-limits";
import { minorUnits } from "./money";
import { userText } from "./text";
import { orderIdPattern, orderReferrerLength, orderStatuses } from "./value-lists";

const orderKinds = ["recharge", "task_budget"] as const;
export { orderStatuses };

/** The device's first-touch referrer (docs/start-up.md), sent with every order created; "" for a direct first visit. */
export const orderReferrerSchema = userText({
  min: 0,
  max: orderReferrerLength,
  tooShort: "",
  tooLong: "The referrer has at most 2,048 characters.",
}).default("");

export const createRechargeOrderBodySchema = z.strictObject({
  amount: minorUnits(defaultLimits.recharge.min, defaultLimits.recharge.max),
  referrer: orderReferrerSchema,
});

export const orderSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(orderKinds),
  amount: z.number().int(),
  description: z.string(),
  status: z.enum(orderStatuses),
  closeReason: z.enum(["cancelled", "expired"]).nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  paidAt: z.iso.datetime().nullable(),
  closedAt: z.iso.datetime().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

/** A refund as the person sees it (docs/decisions/048-failed-wechat-refunds.md for `returned`). */
const refundToPayerStatus = z.enum(["pending", "succeeded", "failed", "returned"]);

/**
 * What WeChat Pay paid back (fen) for a parked refund settled for another amount than asked,
 * or null (docs/decisions/070-parked-refunds-settled.md): less, and the rest went to the
 * wallet; more, and Paydesk covered the difference. Null too for a refund returned to the
 * wallet and paid out later (decision 060), whose statement shows both movements.
 */
export const wechatPaidOutSchema = z.number().int().positive().nullable();

export const orderDetailSchema = orderSchema.extend({
  history: z.array(z.strictObject({ status: z.string(), reason: z.string().nullable(), at: z.iso.datetime() })),
  payments: z.array(
    z.strictObject({
      id: z.string(),
      method: z.enum(["wallet", "wechat"]),
      /**
       * `refunded`: WeChat Pay took the money after the order closed or was paid another way,
       * so it goes back to the payer automatically (see `refund`).
       */
      status: z.enum(["pending", "succeeded", "failed", "refunded"]),
      amount: z.number().int(),
      createdAt: z.iso.datetime(),
      /**
       * A WeChat Pay payment's automatic refund: `pending` until WeChat Pay confirms it; `failed`
       * means an operator follows up; `returned`: WeChat Pay could not pay it back, so an operator
       * put it into the wallet. `id` names its receipt (`GET /api/receipts/refund/{id}`).
       */
      refund: z
        .strictObject({ id: z.string(), status: refundToPayerStatus, amount: z.number().int(), wechatPaidOut: wechatPaidOutSchema })
        .optional(),
    }),
  ),
  /**
   * Refunds Paydesk's operators made, full or partial: back into the wallet at once (a wallet
   * payment), or to WeChat Pay — `pending` until WeChat Pay confirms it, `failed` when it
   * could not and an operator follows up, `returned` when an operator then put it into the wallet.
   */
  refunds: z.array(
    z.strictObject({
      id: z.string(),
      method: z.enum(["wallet", "wechat"]),
      amount: z.number().int().positive(),
      status: refundToPayerStatus,
      wechatPaidOut: wechatPaidOutSchema,
      createdAt: z.iso.datetime(),
    }),
  ),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderListQuerySchema = z.strictObject({
  status: z.enum(orderStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: pageCursorSchema.optional(),
});

export const orderPageSchema = z.strictObject({
  orders: z.array(orderSchema),
  nextCursor: z.string().nullable(),
});

/** An order's id as the origin makes them; the one rule every path, body and page checks. */
export const orderIdSchema = z.string().regex(orderIdPattern, "Not an order id.");

export const orderIdParamSchema = z.strictObject({ id: orderIdSchema });
