/** What the client's callers hand it: orders and refunds to create, in Paydesk's terms. */

export type OrderInput = {
  outTradeNo: string;
  /** At most 127 characters, no emoji: see `wechatDescription`. */
  description: string;
  /** Fen. */
  amount: number;
  /** The Paydesk order's own expiry (ms); sent as `time_expire` so both end together. */
  expiresAt: number;
  attach?: string;
};

export type RefundInput = {
  outRefundNo: string;
  refund: number;
  total: number;
  reason?: string;
} & ({ outTradeNo: string; transactionId?: never } | { transactionId: string; outTradeNo?: never });

/** A programming error in the arguments: nothing was sent. */
export class WechatPayInputError extends Error {
  override name = "WechatPayInputError";
}

/** A description WeChat Pay accepts: no 4-byte UTF-8, at most 127 characters. */
export function wechatDescription(text: string): string {
  const withoutAstral = text.replace(/[\u{10000}-\u{10FFFF}]/gu, "").trim();
  return [...withoutAstral].slice(0, 127).join("") || "Paydesk";
}
