import { defineMessages } from "../i18n/messages";

/**
 * The passkey button on /login: apart from the passkeys section's catalogue, so the login
 * chunk carries only this. What a device's refusal is called comes with the ceremonies
 * (./passkey-refusals.ts).
 */
export const passkeySignInMessages = defineMessages({
  en: {
    signIn: "Sign in with a passkey",
    signingIn: "Waiting for your passkey…",
    or: "or use your handle and password",
  },
  "zh-CN": {
    signIn: "使用通行密钥登录",
    signingIn: "正在等待你的通行密钥…",
    or: "或使用用户名和密码",
  },
});
