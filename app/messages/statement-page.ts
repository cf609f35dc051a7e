import { defineMessages } from "../i18n/messages";

/** The statement's page (/wallet): its title and what it is for, before the statement arrives. The statement's own words are in wallet.ts. */
export const statementPageMessages = defineMessages({
  en: {
    title: "Statement",
    description: "Your Paydesk statement: every wallet entry with its running balance, monthly totals, a CSV export and receipts.",
    purpose: "Sign in to see your statement.",
  },
  "zh-CN": {
    title: "账单",
    description: "你的 Paydesk 账单：每一笔钱包记录及余额、每月收支、CSV 导出和收据。",
    purpose: "登录后查看你的账单。",
  },
});
