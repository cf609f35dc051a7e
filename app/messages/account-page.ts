import { defineMessages } from "../i18n/messages";

/** The account page (/account): its title and what it is for, before its sections arrive. The sections' words are in account.ts. */
export const accountPageMessages = defineMessages({
  en: {
    title: "Your account",
    description: "Your Paydesk account: your name, password, where you are signed in, passkeys and recovery codes.",
    purpose: "Sign in to manage your name, password, sessions, passkeys and recovery codes.",
  },
  "zh-CN": {
    title: "我的账户",
    description: "你的 Paydesk 账户：名字、密码、登录的设备、通行密钥和恢复码。",
    purpose: "登录后可管理你的名字、密码、登录会话、通行密钥和恢复码。",
  },
});
