import { defineMessages } from "../i18n/messages";

/** Recovery codes: a new set shown once (after sign-up on /login, and on /account), or none yet. */
export const recoveryCodeMessages = defineMessages({
  en: {
    codesShownOnce: "Your new recovery codes. They are shown only now: save them before you leave this page.",
    codesList: "Recovery codes",
    downloadCodes: "Download as a text file",
    codesFileIntro: (handle: string) => `Paydesk recovery codes for @${handle}. Each works once.`,
    savedCodes: "I have saved them",
    codesNone: "You have no recovery codes yet.",
    toAccount: "Go to your account",
  },
  "zh-CN": {
    codesShownOnce: "这是你的新恢复码，只显示这一次：离开本页前请妥善保存。",
    codesList: "恢复码",
    downloadCodes: "下载为文本文件",
    codesFileIntro: (handle: string) => `@${handle} 的 Paydesk 恢复码，每个只能使用一次。`,
    savedCodes: "我已保存",
    codesNone: "你还没有恢复码。",
    toAccount: "前往我的账户",
  },
});
