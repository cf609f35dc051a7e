/**
 * The paths WeChat Pay calls itself: every call is signed, and the signature is checked
 * instead of the edge's credential (docs/decisions/011-origin-trusts-the-edge.md).
 */
export const signedByWechatPay = new Set(["/api/payments/wechat/notify", "/api/payments/wechat/refund-notify"]);
