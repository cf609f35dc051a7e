import { defineMessages } from "../i18n/messages";

/** The headings around the server-rendered help and terms. */
export const contentMessages = defineMessages({
  en: {
    helpTitle: "Help",
    helpDescription: "Answers to common questions about Paydesk's wallet, payments, transfers and tasks.",
    helpLead: "Answers to the questions people ask most. Still stuck? Open a support ticket or contact us.",
    termsTitle: "Terms of service",
    termsDescription: "The terms of service for using Paydesk.",
    inForceFrom: "In force from",
  },
  "zh-CN": {
    helpTitle: "帮助",
    helpDescription: "关于 Paydesk 钱包、支付、转账和任务的常见问题解答。",
    helpLead: "常见问题解答。仍未解决？请提交客服工单或联系我们。",
    termsTitle: "服务条款",
    termsDescription: "使用 Paydesk 的服务条款。",
    inForceFrom: "生效日期：",
  },
});
