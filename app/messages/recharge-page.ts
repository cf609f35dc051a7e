import { defineMessages } from "../i18n/messages";

/** The recharge page (/recharge, /code): its title and what it is for, before its forms arrive. The forms' words are in recharge.ts. */
export const rechargePageMessages = defineMessages({
  en: {
    title: "Recharge",
    description: "Top up your Paydesk wallet with WeChat Pay or redeem a prepaid code.",
    purpose: "Sign in to top up your wallet.",
  },
  "zh-CN": {
    title: "充值",
    description: "通过微信支付或兑换充值码为 Paydesk 钱包充值。",
    purpose: "登录后即可为钱包充值。",
  },
});
