import { defineMessages } from "../i18n/messages";

/** The landing page as a visitor without a session sees it, and its meta. What someone signed in sees is in wallet-overview.ts. */
export const homeMessages = defineMessages({
  en: {
    title: "Paydesk · Wallet, payments and paid tasks",
    description: "Paydesk: a wallet for paying orders, sending money to friends and earning rewards for paid tasks.",
    heroTitle: "Your wallet for orders, transfers and paid tasks",
    heroLead:
      "Top up with WeChat Pay or a prepaid code, pay orders, send money to friends, post tasks with a reward and earn by doing tasks for others.",
    signIn: "Sign in",
    createAccount: "Create an account",
  },
  "zh-CN": {
    title: "Paydesk · 钱包、支付与有偿任务",
    description: "Paydesk：用于支付订单、给朋友转账、完成有偿任务赚取报酬的钱包。",
    heroTitle: "用于订单、转账和有偿任务的钱包",
    heroLead: "用微信支付或充值码充值，支付订单，给朋友转账，发布有报酬的任务，也可以帮别人完成任务赚取报酬。",
    signIn: "登录",
    createAccount: "注册账户",
  },
});
