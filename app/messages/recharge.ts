import { defineMessages } from "../i18n/messages";

export const rechargeMessages = defineMessages({
  en: {
    redeemTitle: "Redeem a prepaid code",
    code: "Prepaid code",
    codeHint: "16 letters and digits, like ABCD-EFGH-JKMN-PQRS. Dashes and case do not matter.",
    redeem: "Redeem code",
    redeeming: "Redeeming…",
    redeemed: (amount: string) => `Done: ${amount} was added to your wallet.`,
    onlineTitle: "Top up online",
    amount: "Amount (¥)",
    amountHint: (min: string, max: string) => `From ${min} to ${max}. You pay with WeChat Pay on the next page.`,
    createOrder: "Continue to payment",
    creating: "Creating your order…",
    fields: {
      code: "A code has 16 letters and digits, like ABCD-EFGH-JKMN-PQRS.",
    },
  },
  "zh-CN": {
    redeemTitle: "兑换充值码",
    code: "充值码",
    codeHint: "16 位字母和数字，例如 ABCD-EFGH-JKMN-PQRS。不区分大小写，可带短横线。",
    redeem: "兑换",
    redeeming: "正在兑换…",
    redeemed: (amount: string) => `兑换成功：${amount} 已存入你的钱包。`,
    onlineTitle: "在线充值",
    amount: "金额（¥）",
    amountHint: (min: string, max: string) => `${min} 至 ${max}。下一页使用微信支付。`,
    createOrder: "去支付",
    creating: "正在创建订单…",
    fields: {
      code: "充值码为 16 位字母和数字，例如 ABCD-EFGH-JKMN-PQRS。",
    },
  },
});
