import { defineMessages } from "../i18n/messages";

/**
 * What /login says of a field the contract refuses: checked on a submit, by the code a submit
 * fetches (app/account/login-actions.client.ts), so apart from the page's own catalogue.
 */
export const loginFieldMessages = defineMessages({
  en: {
    handle: "A handle has 3 to 32 lower-case letters, digits or underscores.",
    password: "A password has 10 to 256 characters.",
    displayName: "Enter the name others will see (up to 64 characters).",
  },
  "zh-CN": {
    handle: "用户名须为 3 到 32 个小写字母、数字或下划线。",
    password: "密码须为 10 到 256 个字符。",
    displayName: "请输入别人看到的名字（最多 64 个字符）。",
  },
});
