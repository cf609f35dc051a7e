/**
 * Values that the contract's schemas and the pages both use, as plain values with no zod:
 * the pages render the lists (a ticket's categories, the order filter) and read a payment
 * screen's URL by the patterns, where neither the edge's server build nor a page's first load
 * may build a schema (docs/decisions/034-lighter-edge.md and
 * docs/decisions/036-form-rules-on-demand.md).
 */
export const orderStatuses = ["pending", "paid", "closed"] as const;

/**
 * How many tasks or claims one answer of a person's own lists holds: a full answer may have
 * older ones behind it, which `before` (the oldest one's id) asks for.
 */
export const personalListPageSize = 100;

/** The longest first-touch referrer an order keeps, in code points (docs/start-up.md). */
export const orderReferrerLength = 2048;

/**
 * What a line of the wallet's history is, seen from the wallet's owner. One line per
 * journal transaction that touched the wallet (docs/decisions/003-ledger.md):
 *
 * - `code_redeem`: a prepaid code redeemed (available +);
 * - `transfer_in` / `transfer_out`: money from / to another user (available ±);
 * - `recharge`: an online recharge credited (available +);
 * - `task_budget`: a task's budget paid from the wallet (available −, held +);
 * - `task_reward`: a reward received for approved work (available +);
 * - `task_reward_paid`: a reward paid out of my task's escrow (held −);
 * - `escrow_refund`: escrow my task no longer needs, back to my wallet (held −, available +);
 * - `refund`: a payment refunded (available +);
 * - `other`: a movement this version of the contract does not name yet.
 */
export const walletEntryKinds = [
  "code_redeem",
  "transfer_in",
  "transfer_out",
  "recharge",
  "task_budget",
  "task_reward",
  "task_reward_paid",
  "escrow_refund",
  "refund",
  "other",
] as const;

export const ticketCategories = ["payment", "order", "transfer", "task", "account", "other"] as const;

/** An order's and a support ticket's ids, as the origin makes them. */
export const orderIdPattern = /^ord_[0-9a-f-]{36}$/;
export const ticketIdPattern = /^tkt_[0-9a-f-]{36}$/;

/**
 * WeChat Pay's ways to pay: Native (a QR code), H5 (a phone's browser), JSAPI (inside WeChat).
 * A plain list, so that the origin can read its configuration at start-up without building
 * the payment schemas (docs/decisions/047-origin-start-builds-no-payment-schemas.md).
 */
export const wechatPayFlows = ["native", "h5", "jsapi"] as const;
export type WechatPayFlow = (typeof wechatPayFlows)[number];

/** A WeChat openid (the payer in WeChat's own browser), as WeChat's sign-in reports it: its characters and its longest length. */
export const wechatOpenidPattern = /^[0-9A-Za-z_-]+$/;
export const wechatOpenidMaxLength = 128;

/** The longest statement one CSV export covers, in days (docs/rules-and-limits.md). */
export const walletExportMaxDays = 366;

/**
 * A WeChat Pay refund's states at the origin, and those in which WeChat Pay has failed it for
 * good: its money waits in the clearing account until a finance operator returns it to the
 * wallet (docs/decisions/048-failed-wechat-refunds.md).
 */
export const wechatRefundStatuses = ["due", "processing", "succeeded", "abnormal", "closed", "refused"] as const;
export const failedWechatRefundStatuses = [
  "abnormal",
  "closed",
  "refused",
] as const satisfies readonly (typeof wechatRefundStatuses)[number][];
