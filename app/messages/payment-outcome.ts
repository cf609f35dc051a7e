import { defineMessages } from "../i18n/messages";

/**
 * What became of an order's money, as the payment result tells it: a WeChat Pay payment that
 * landed after the order closed or was paid, and its automatic refund
 * (docs/decisions/074-the-payment-result-says-where-the-money-is.md). Amounts come formatted.
 */
export const paymentOutcomeMessages = defineMessages({
  en: {
    cancelled: "This order was cancelled",
    expired: "The time to pay this order ran out",
    closed: "This order is closed",
    nothingPaid: "Nothing was paid for it.",
    mayStillLand:
      "If you paid it with WeChat Pay a moment ago, that payment is not lost: it goes back to you. This page shows it once WeChat Pay confirms.",
    payAgain: "Pay this order",
    payAgainHint:
      "Left WeChat Pay without paying? You can pay this order again. If you did pay, stay here: the payment is confirmed in a moment.",
    lateAfterClosed: (amount: string) =>
      `Your WeChat Pay payment of ${amount} arrived after this order had closed, so it goes back to you.`,
    lateAfterPaid: (amount: string) =>
      `Your WeChat Pay payment of ${amount} arrived after this order had already been paid, so it goes back to you.`,
    refund: {
      pending: "The refund to your WeChat Pay is on its way.",
      succeeded: "It has been refunded to your WeChat Pay.",
      failed: "WeChat Pay could not refund it yet. Our support team is following it up and will contact you.",
      returned: "WeChat Pay could not refund it, so it was put into your Paydesk wallet.",
    },
    refundReceipt: "Receipt of the refund",
  },
  "zh-CN": {
    cancelled: "此订单已取消",
    expired: "此订单已超过支付时限",
    closed: "此订单已关闭",
    nothingPaid: "此订单没有产生任何扣款。",
    mayStillLand: "如果你刚刚用微信支付付了款，这笔钱不会丢失，会退还给你。微信支付确认后，此页面会显示。",
    payAgain: "支付此订单",
    payAgainHint: "没有完成微信支付就离开了？你可以再次支付此订单。如果已经付款，请留在此页面，支付很快会得到确认。",
    lateAfterClosed: (amount: string) => `你用微信支付付的 ${amount} 在订单关闭后才到账，将退还给你。`,
    lateAfterPaid: (amount: string) => `此订单已支付后又收到一笔 ${amount} 的微信支付，这笔钱将退还给你。`,
    refund: {
      pending: "退款正在退回你的微信支付。",
      succeeded: "已退回你的微信支付。",
      failed: "微信支付暂时无法退款，客服正在跟进，会联系你。",
      returned: "微信支付无法退款，这笔钱已存入你的 Paydesk 钱包。",
    },
    refundReceipt: "退款凭证",
  },
});
