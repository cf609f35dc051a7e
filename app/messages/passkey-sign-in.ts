import { defineMessages } from "../i18n/messages";

/**
 * Signing in with a passkey on /login, and what a device's refusal is called (also on
 * /account): apart from the passkeys section's catalogue so the login chunk carries only this.
 */
export const passkeySignInMessages = defineMessages({
  en: {
    signIn: "Sign in with a passkey",
    signingIn: "Waiting for your passkey…",
    or: "or use your handle and password",
    cancelled: "The passkey request was cancelled or timed out. Try again when you are ready.",
    alreadyOnDevice: "This device already holds a passkey for your account.",
    deviceFailed: "Your device could not use a passkey. Try again, or use another device.",
  },
  "zh-CN": {
    signIn: "使用通行密钥登录",
    signingIn: "正在等待你的通行密钥…",
    or: "或使用用户名和密码",
    cancelled: "通行密钥请求已取消或超时。准备好后请重试。",
    alreadyOnDevice: "此设备上已有你账户的通行密钥。",
    deviceFailed: "你的设备无法使用通行密钥。请重试，或换一台设备。",
  },
});
