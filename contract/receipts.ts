/** Receipts (docs/decisions/026-statement-and-receipts.md): one page per transfer, order payment, refund and task reward. */
import { z } from "zod";
import { wechatPaidOutSchema } from "./orders";
import { personSchema } from "./people";
import { receiptKinds } from "./wallet";

export const receiptParamsSchema = z.strictObject({
  kind: z.enum(receiptKinds),
  /** A transfer's, payment's, refund's or claim's id, as the statement, the order page or the transfer gave it. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, "Not a receipt id."),
});

export const receiptSchema = z.strictObject({
  kind: z.enum(receiptKinds),
  id: z.string(),
  /**
   * `succeeded`: the money moved; `pending`: on its way (a WeChat Pay payment or refund not
   * yet confirmed); `failed`: it did not move (or a refund an operator follows up);
   * `refunded`: a WeChat Pay payment that came too late, going back to the payer; `returned`:
   * a WeChat Pay refund WeChat Pay could not pay back, put into the wallet by an operator.
   */
  status: z.enum(["succeeded", "pending", "failed", "refunded", "returned"]),
  /** Fen, positive. */
  amount: z.number().int().positive(),
  /** When the money moved (when the attempt was made, for one that has not). */
  createdAt: z.iso.datetime(),
  /** Who paid; null for Paydesk itself (a refund). */
  payer: personSchema.nullable(),
  /** Who was paid; null for Paydesk itself (an order's payment). */
  payee: personSchema.nullable(),
  /** How an order's payment or refund was made. */
  method: z.enum(["wallet", "wechat"]).nullable(),
  /** A transfer's note ("" when none was written). */
  note: z.string().nullable(),
  /** A refund's: what WeChat Pay paid back when it paid another amount than this one (orders.ts). */
  wechatPaidOut: wechatPaidOutSchema,
  /** The order paid or refunded. */
  order: z.strictObject({ id: z.string(), kind: z.enum(["recharge", "task_budget"]), description: z.string() }).nullable(),
  /** The task a reward or a task budget belongs to. */
  task: z.strictObject({ id: z.string(), title: z.string() }).nullable(),
  /** The journal transaction that moved the money (null while nothing has moved). */
  transactionId: z.string().nullable(),
});
export type Receipt = z.infer<typeof receiptSchema>;
