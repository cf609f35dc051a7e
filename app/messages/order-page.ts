import { defineMessages } from "../i18n/messages";

/** The orders page (/order): its titles and what it is for, before the orders arrive. The orders' own words are in orders.ts. */
export const orderPageMessages = defineMessages({
  en: {
    title: "Orders",
    description: "Your Paydesk orders: what you paid, what is waiting, and any refunds.",
    purpose: "Sign in to see your orders.",
    detailTitle: "Order details",
  },
  "zh-CN": {
    title: "订单",
    description: "你的 Paydesk 订单：已支付、待支付以及退款。",
    purpose: "登录后查看你的订单。",
    detailTitle: "订单详情",
  },
});
