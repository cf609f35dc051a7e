import { defineMessages } from "../i18n/messages";

/**
 * A refund WeChat Pay paid back for another amount than asked, as the order page and the
 * receipt tell it (docs/decisions/070-parked-refunds-settled.md). The amounts come formatted.
 */
export const wechatPaidOutMessages = defineMessages({
  en: {
    label: "How it came back",
    less: (paidOut: string, rest: string) => `${paidOut} through WeChat Pay and ${rest} to your wallet.`,
    more: (paidOut: string, extra: string) => `${paidOut} through WeChat Pay: ${extra} more than this refund, covered by Paydesk.`,
  },
  "zh-CN": {
    label: "退回方式",
    less: (paidOut: string, rest: string) => `${paidOut} 经微信支付退回，${rest} 退入你的钱包。`,
    more: (paidOut: string, extra: string) => `${paidOut} 经微信支付退回，比本次退款多 ${extra}，由 Paydesk 承担。`,
  },
});
