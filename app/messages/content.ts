import { defineMessages } from "../i18n/messages";

/** The headings around the server-rendered help and terms. */
export const contentMessages = defineMessages({
  en: {
    helpTitle: "Help",
    helpLead: "Answers to the questions people ask most. Still stuck? Open a support ticket or contact us.",
    termsTitle: "Terms of service",
    inForceFrom: "In force from",
  },
  "zh-CN": {
    helpTitle: "帮助",
    helpLead: "常见问题解答。仍未解决？请提交客服工单或联系我们。",
    termsTitle: "服务条款",
    inForceFrom: "生效日期：",
  },
});
