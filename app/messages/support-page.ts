import { defineMessages } from "../i18n/messages";

/** The support page (/support): its title and what it is for, before the tickets arrive. The tickets' words, and the contact page's, are in support.ts. */
export const supportPageMessages = defineMessages({
  en: {
    title: "Support",
    description: "Your Paydesk support tickets: ask for help and read our answers.",
    purpose: "Sign in to see your support tickets and write to us.",
  },
  "zh-CN": {
    title: "客服",
    description: "你的 Paydesk 客服工单：寻求帮助并查看回复。",
    purpose: "登录后查看你的客服工单并联系我们。",
  },
});
