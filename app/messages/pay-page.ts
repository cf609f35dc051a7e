import { defineMessages } from "../i18n/messages";

/** The checkout's page (/pay): its title and what it is for, before the order arrives. The payment screens' own words are in payment.ts. */
export const payPageMessages = defineMessages({
  en: {
    payTitle: "Checkout",
    payDescription: "Choose how to pay your Paydesk order: from your wallet or with WeChat Pay.",
    payPurpose: "Sign in to pay this order.",
  },
  "zh-CN": {
    payTitle: "收银台",
    payDescription: "选择 Paydesk 订单的支付方式：钱包余额或微信支付。",
    payPurpose: "登录后支付此订单。",
  },
});
