import { defineMessages } from "../i18n/messages";

/** The transfer page (/transfer): its title and what it is for, before its steps arrive. The steps' words are in transfer.ts. */
export const transferPageMessages = defineMessages({
  en: {
    title: "Send money",
    description: "Send money from your Paydesk wallet to another person by their handle.",
    purpose: "Sign in to send money to another Paydesk user.",
  },
  "zh-CN": {
    title: "转账",
    description: "按用户名从 Paydesk 钱包向他人转账。",
    purpose: "登录后即可向其他 Paydesk 用户转账。",
  },
});
