/** The back office's order desk (docs/decisions/014-back-office-desks.md): read-only. */
import { z } from "zod";
import { pageCursorSchema } from "./openapi";
import { handleSchema } from "./account";
import { personSchema } from "./people";
import { orderIdSchema, orderSchema, orderStatuses } from "./orders";
import { wechatPayFlows } from "./payments";
import { wechatRefundStatuses } from "./value-lists";

/** A person as the back office names them: the id beside the handle and the display name. */
export const personRefSchema = z.strictObject({ id: z.string(), handle: z.string(), displayName: z.string() });
export type PersonRef = z.infer<typeof personRefSchema>;

/** A moment a filter starts (inclusive) or ends (exclusive): ISO 8601 with a zone (`Z` or `+08:00`). */
export const filterMomentSchema = z.iso.datetime({
  offset: true,
  error: "Enter a date and time with its zone, e.g. 2026-11-01T00:00:00+08:00.",
});

/**
 * What is known of a payment attempt: WeChat Pay's merchant order number (`outTradeNo`),
 * its own transaction id once paid, and the state of the order at WeChat Pay as last seen
 * (`remoteState`: creating, open, paid, closed, absent, refused, mismatch).
 */
export const opsPaymentSchema = z.strictObject({
  id: z.string(),
  method: z.enum(["wallet", "wechat"]),
  flow: z.enum(wechatPayFlows).nullable(),
  status: z.enum(["pending", "succeeded", "failed", "refunded"]),
  amount: z.number().int(),
  outTradeNo: z.string().nullable(),
  transactionId: z.string().nullable(),
  remoteState: z.enum(["creating", "open", "paid", "closed", "absent", "refused", "mismatch"]).nullable(),
  /** How often the cron asked WeChat Pay about it. */
  checks: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type OpsPayment = z.infer<typeof opsPaymentSchema>;

const opsOrderSchema = orderSchema.extend({ person: personRefSchema });
export type OpsOrder = z.infer<typeof opsOrderSchema>;

/** What WeChat Pay sent about one of the order's payments: never the resource itself. */
const wechatNotificationSchema = z.strictObject({
  id: z.string(),
  eventType: z.string(),
  outTradeNo: z.string().nullable(),
  outRefundNo: z.string().nullable(),
  /** What the origin made of it: settled, refund_due, already_settled, ignored, unknown_order, amount_mismatch, refund_recorded, … */
  outcome: z.string(),
  deliveries: z.number().int(),
  firstReceivedAt: z.iso.datetime(),
  lastReceivedAt: z.iso.datetime(),
});

/** A WeChat Pay refund number: `RF` and the payment's out_trade_no (automatic), or `RO` and 32 hex digits (an operator's). */
export const outRefundNoSchema = z.string().regex(/^R[FO][A-Za-z0-9_-]{1,62}$/, "Not a WeChat Pay refund number.");

/** How finance settles a refund paid twice (docs/decisions/060-refunds-paid-twice.md). */
export const paidTwiceSettlements = ["take_back", "bear", "to_paydesk"] as const;

/**
 * A refund paid twice, settled by a finance operator (docs/decisions/060-refunds-paid-twice.md):
 * WeChat Pay's payout booked as money out, taken back from the wallet the money was returned
 * to (`take_back`) or borne by Paydesk (`bear`); or nothing booked, WeChat Pay having paid it
 * to Paydesk's own account (`to_paydesk`).
 */
const paidTwiceSettlementSchema = z.strictObject({
  how: z.enum(paidTwiceSettlements),
  /** Who chose the way and gave the reason: for a settlement that waited, whoever asked for it. */
  by: personSchema,
  /** The second operator who approved it, for one that waited (docs/decisions/072-large-settlements-need-a-second-operator.md). */
  approvedBy: personSchema.nullable(),
  at: z.iso.datetime(),
  reason: z.string(),
});

const settlementRequestIdSchema = z.string().regex(/^srq_[0-9a-f-]{36}$/, "Not a settlement request id.");
export const settlementRequestIdParamSchema = z.strictObject({ id: settlementRequestIdSchema });

/**
 * A settlement of a refund paid twice that waits, or waited, for a second operator: Paydesk
 * bearing it, or finding it paid to Paydesk's own account, for more than the refunds' approval
 * threshold (docs/decisions/072-large-settlements-need-a-second-operator.md). Approved, the
 * refund is settled as asked; rejected or withdrawn, it may be settled again.
 */
const settlementRequestSchema = z.strictObject({
  id: settlementRequestIdSchema,
  how: z.enum(["bear", "to_paydesk"]),
  /** What WeChat Pay paid out (fen): what the settlement books, or finds paid to Paydesk. */
  amount: z.number().int().positive(),
  reason: z.string(),
  /** `withdrawn`: whoever asked took it back before anyone decided (`decidedBy` is then they). */
  status: z.enum(["awaiting_approval", "approved", "rejected", "withdrawn"]),
  requestedBy: personSchema,
  requestedAt: z.iso.datetime(),
  decidedBy: personSchema.nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionNote: z.string().nullable(),
  /**
   * Whether the operator reading it may approve or reject it: it waits, they did not ask for it,
   * the order is not theirs, and they are a second operator to whoever asked.
   */
  yoursToDecide: z.boolean(),
});
export type SettlementRequest = z.infer<typeof settlementRequestSchema>;

/**
 * A failed refund's money returned to the wallet of the order's owner by a finance operator
 * (docs/decisions/048-failed-wechat-refunds.md). `lateSuccessAt`: WeChat Pay reported the
 * refund done afterwards (settled at its merchant platform), so the payer was paid twice,
 * until `settled` (docs/decisions/060-refunds-paid-twice.md).
 */
const refundReturnSchema = z.strictObject({
  to: personRefSchema,
  by: personSchema,
  at: z.iso.datetime(),
  reason: z.string(),
  lateSuccessAt: z.iso.datetime().nullable(),
  /** Where WeChat Pay says the late payout went (its user_received_account), when it said. */
  lateSuccessAccount: z.string().nullable(),
  /**
   * What WeChat Pay paid out late (fen): the refund's amount, or for a parked refund the amount
   * WeChat Pay reports (docs/decisions/070-parked-refunds-settled.md); what a settlement books.
   */
  lateSuccessAmount: z.number().int().positive().nullable(),
  settled: paidTwiceSettlementSchema.nullable(),
  /** The newest settlement asked for past the threshold, whatever became of it; null when none was. */
  settlementRequest: settlementRequestSchema.nullable(),
  /**
   * When the cron next asks WeChat Pay about the refund, in case the merchant platform pays it
   * out after all (docs/decisions/071-returned-refunds-asked-again.md); null once WeChat Pay
   * reported it paid out, or a year after the return.
   */
  nextAskAt: z.iso.datetime().nullable(),
});

/**
 * A parked refund WeChat Pay paid out for another amount than asked, settled by a finance
 * operator (docs/decisions/070-parked-refunds-settled.md): `refunded` (fen) is what WeChat Pay
 * reports it paid out and was booked as money out; the rest of the asked amount went to the
 * wallet of the order's owner, and a payout above it was borne by Paydesk.
 */
const otherAmountSettlementSchema = z.strictObject({
  refunded: z.number().int().positive(),
  by: personSchema,
  at: z.iso.datetime(),
  reason: z.string(),
});

/** A WeChat Pay refund: automatic (a payment no order could take) or an operator's. */
export const wechatRefundSchema = z.strictObject({
  outRefundNo: outRefundNoSchema,
  paymentId: z.string(),
  amount: z.number().int(),
  /** Why: automatic (the order could not take the payment), or `operator` (docs/decisions/015-operator-refunds.md). */
  reason: z.enum(["order_closed", "order_already_paid", "operator"]),
  status: z.enum(wechatRefundStatuses),
  /**
   * WeChat Pay reported another amount than asked (`lastError`): not asked about again, nor
   * returned as a failed refund is; a finance operator settles it by what WeChat Pay, asked
   * again, says it did (docs/decisions/070-parked-refunds-settled.md).
   */
  parked: z.boolean(),
  refundId: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Set once a finance operator returned a failed refund's money to the wallet. */
  returned: refundReturnSchema.nullable(),
  /** Set once a finance operator settled a parked refund WeChat Pay paid out for another amount. */
  otherAmount: otherAmountSettlementSchema.nullable(),
});
export type WechatRefund = z.infer<typeof wechatRefundSchema>;

/** An order's whole story, in one answer. */
export const orderStorySchema = z.strictObject({
  order: opsOrderSchema,
  history: z.array(z.strictObject({ status: z.string(), reason: z.string().nullable(), at: z.iso.datetime() })),
  payments: z.array(opsPaymentSchema),
  notifications: z.array(wechatNotificationSchema),
  refunds: z.array(wechatRefundSchema),
});
export type OrderStory = z.infer<typeof orderStorySchema>;

export const orderSearchQuerySchema = z.strictObject({
  /** An order id, a WeChat Pay `out_trade_no`, or WeChat Pay's `transaction_id`: matched exactly. */
  q: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Search by an order id, an out_trade_no or a WeChat Pay transaction id.")
    .optional(),
  status: z.enum(orderStatuses).optional(),
  kind: z.enum(["recharge", "task_budget"]).optional(),
  /** The handle of the person whose orders to list; an unknown handle is 404 (field person). */
  person: handleSchema.optional(),
  /** Created at or after. */
  from: filterMomentSchema.optional(),
  /** Created before. */
  to: filterMomentSchema.optional(),
  cursor: pageCursorSchema.optional(),
});

export const orderSearchPageSchema = z.strictObject({
  orders: z.array(opsOrderSchema).max(50),
  nextCursor: z.string().nullable(),
});

export const opsOrderIdParamSchema = z.strictObject({ id: orderIdSchema });

const paymentStatusSchema = opsPaymentSchema.shape.status;
const refundStatusSchema = wechatRefundSchema.shape.status;

/**
 * What asking WeChat Pay now did (docs/decisions/015-operator-refunds.md). A pending payment's
 * `outcome` is the cron's: settled, refund_due (paid, but the order could not take it),
 * closed, later (not paid yet, or no clear answer), mismatch (WeChat Pay reports another
 * amount or a refund made elsewhere). A payment decided already is only asked about:
 * answered (with WeChat Pay's `tradeState`) or unanswered.
 */
const opsWechatAskSchema = z.strictObject({
  payments: z.array(
    z.strictObject({
      outTradeNo: z.string(),
      before: paymentStatusSchema,
      after: paymentStatusSchema,
      outcome: z.enum(["settled", "refund_due", "closed", "later", "mismatch", "answered", "unanswered"]),
      tradeState: z.string().nullable(),
    }),
  ),
  refunds: z.array(z.strictObject({ outRefundNo: z.string(), before: refundStatusSchema, after: refundStatusSchema })),
});
export type OpsWechatAsk = z.infer<typeof opsWechatAskSchema>;

/** The answer of "ask WeChat Pay now": what was asked, and the order's story afterwards. */
export const opsWechatAskAnswerSchema = z.strictObject({ asked: opsWechatAskSchema, story: orderStorySchema });
