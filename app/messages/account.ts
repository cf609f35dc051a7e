import { defineMessages } from "../i18n/messages";

/** /account: the signed-in person's own settings (each section has its own catalogue). */
export const accountMessages = defineMessages({
  en: {
    title: "Your account",
    description: "Manage how you sign in to Paydesk: your passkeys.",
    purpose: "Sign in to manage your account.",
  },
  "zh-CN": {
    title: "你的账户",
    description: "管理你登录 Paydesk 的方式：你的通行密钥。",
    purpose: "登录后即可管理你的账户。",
  },
});
