/**
 * Values that the contract's schemas and the pages both use, as plain values with no zod:
 * the pages render the lists (a ticket's categories, the order filter) and read a payment
 * screen's URL by the patterns, where neither the edge's server build nor a page's first load
 * may build a schema (docs/decisions/034-lighter-edge.md and
 * docs/decisions/036-form-rules-on-demand.md).
 */
export const orderStatuses = ["pending", "paid", "closed"] as const;

export const ticketCategories = ["payment", "order", "transfer", "task", "account", "other"] as const;

/** An order's and a support ticket's ids, as the origin makes them. */
export const orderIdPattern = /^ord_[0-9a-f-]{36}$/;
export const ticketIdPattern = /^tkt_[0-9a-f-]{36}$/;

/** A WeChat openid (the payer in WeChat's own browser): its characters and its longest length. */
export const wechatOpenidPattern = /^[0-9A-Za-z_-]+$/;
export const wechatOpenidMaxLength = 128;

/** Whether a value is a well-formed openid: the rules of the contract's wechatOpenidSchema. */
export function isWechatOpenid(value: string | null): value is string {
  return value !== null && value.length > 0 && value.length <= wechatOpenidMaxLength && wechatOpenidPattern.test(value);
}
