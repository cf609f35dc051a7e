/** Refunds an operator makes (docs/decisions/015-operator-refunds.md). */
import { z } from "zod";
import { minorUnits } from "./money";
import { orderIdSchema } from "./orders";
import { outRefundNoSchema, paidTwiceSettlements, personRefSchema, wechatRefundSchema } from "./ops-orders";
import { reasonSchema } from "./ops";
import { wechatRefundStatuses } from "./value-lists";

/** A refund's amount in fen: at most what was paid, which the origin checks against the payment. */
export const refundBodySchema = z.strictObject({ amount: minorUnits(1, 100_000_000), reason: reasonSchema });

const refundIdSchema = z.string().regex(/^rfd_[0-9a-f-]{36}$/, "Not a refund id.");
export const refundIdParamSchema = z.strictObject({ id: refundIdSchema });

const operatorNameSchema = z.strictObject({ handle: z.string(), displayName: z.string() });

export const refundRequestSchema = z.strictObject({
  id: refundIdSchema,
  orderId: orderIdSchema,
  paymentId: z.string(),
  method: z.enum(["wallet", "wechat"]),
  amount: z.number().int().positive(),
  reason: z.string(),
  /** `approved`: the money moved (a WeChat Pay refund then goes its way: see `wechat`). */
  status: z.enum(["awaiting_approval", "approved", "rejected"]),
  /** Where the money came from: the wallet's balance, or the escrow of a still-open task's unclaimed slots. */
  source: z.enum(["wallet", "task_escrow"]).nullable(),
  requestedBy: operatorNameSchema,
  requestedAt: z.iso.datetime(),
  decidedBy: operatorNameSchema.nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionNote: z.string().nullable(),
  /** WeChat Pay's side: its refund number and state, for a WeChat Pay payment once approved. */
  wechat: z
    .strictObject({
      outRefundNo: z.string(),
      status: z.enum(wechatRefundStatuses),
    })
    .nullable(),
  /**
   * Whether the operator reading it may approve or reject it: it awaits a decision, they did
   * not ask for it, the order is not theirs, and they are a second operator to whoever asked.
   */
  yoursToDecide: z.boolean(),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

export const refundQueueQuerySchema = z.strictObject({
  status: z.enum(["awaiting_approval", "approved", "rejected"]).default("awaiting_approval"),
});

/** What an order still allows: each succeeded payment, what was refunded of it and what is left. */
export const orderRefundsSchema = z.strictObject({
  refunds: z.array(refundRequestSchema),
  payments: z.array(
    z.strictObject({
      id: z.string(),
      method: z.enum(["wallet", "wechat"]),
      paid: z.number().int(),
      refundable: z.number().int().min(0).meta({
        description:
          "What is left to refund (fen): paid, less the refunds not rejected and what WeChat Pay paid out beyond a refund's asked amount (a parked refund settled for more)",
      }),
    }),
  ),
  /** What one payment's refunds made without a second operator may total (fen); a refund that would pass it waits for one. */
  approvalThreshold: z.number().int(),
});

/**
 * A WeChat Pay refund with its order and the order's owner, whose wallet a failed refund's
 * money may go back to (docs/decisions/048-failed-wechat-refunds.md).
 */
export const opsWechatRefundSchema = wechatRefundSchema.extend({ orderId: orderIdSchema, person: personRefSchema });
export type OpsWechatRefund = z.infer<typeof opsWechatRefundSchema>;

export const outRefundNoParamSchema = z.strictObject({ outRefundNo: outRefundNoSchema });

/** Why the failed refund's money goes to the wallet (what was agreed with the person, a ticket). */
export const refundReturnBodySchema = z.strictObject({ reason: reasonSchema });

/**
 * Why a parked refund is settled as WeChat Pay, asked again, says it ended
 * (docs/decisions/070-parked-refunds-settled.md): what the operator saw at the merchant
 * platform, what was agreed with the person.
 */
export const parkedRefundSettleBodySchema = z.strictObject({ reason: reasonSchema });

/**
 * How a refund paid twice is settled, and why (docs/decisions/060-refunds-paid-twice.md):
 * `take_back` from the wallet the money was returned to, `bear`, Paydesk covering it, or
 * `to_paydesk`, WeChat Pay having paid it to Paydesk's own account.
 */
export const paidTwiceSettleBodySchema = z.strictObject({
  how: z.enum(paidTwiceSettlements, { error: "Choose how to settle it: take_back, bear or to_paydesk." }),
  reason: reasonSchema,
});
export type PaidTwiceSettleBody = z.infer<typeof paidTwiceSettleBodySchema>;
