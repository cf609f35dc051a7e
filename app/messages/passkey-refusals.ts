import { defineMessages } from "../i18n/messages";

/**
 * Why the device gave no passkey, as /login and /account tell it: with the ceremonies
 * (app/account/webauthn.ts), which only a page that uses a passkey fetches.
 */
export const passkeyRefusalMessages = defineMessages({
  en: {
    cancelled: "The passkey request was cancelled or timed out. Try again when you are ready.",
    alreadyOnDevice: "This device already holds a passkey for your account.",
    deviceFailed: "Your device could not use a passkey. Try again, or use another device.",
  },
  "zh-CN": {
    cancelled: "通行密钥请求已取消或超时。准备好后请重试。",
    alreadyOnDevice: "此设备上已有你账户的通行密钥。",
    deviceFailed: "你的设备无法使用通行密钥。请重试，或换一台设备。",
  },
});
