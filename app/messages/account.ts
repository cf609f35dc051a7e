import { defineMessages } from "../i18n/messages";

/** /account: name, password, sessions and recovery codes. */
export const accountMessages = defineMessages({
  en: {
    profileTitle: "Your name",
    handleIs: (handle: string) => `Your handle is @${handle}; it cannot change.`,
    displayName: "Display name",
    displayNameHint: "The name people see beside your handle when they send you money.",
    saveName: "Save name",
    savingName: "Saving…",
    nameSaved: "Your name is saved.",
    passwordTitle: "Password",
    passwordLead: "Changing your password signs you out everywhere else.",
    currentPassword: "Current password",
    newPassword: "New password",
    newPasswordHint: "At least 10 characters.",
    changePassword: "Change password",
    changingPassword: "Changing…",
    /** A passkey outlives a password change: said after one, for whoever changed it to take the account back. */
    passwordChanged: (ended: number, passkeys: number) =>
      [
        "Your password is changed.",
        ended === 0 ? "" : `${ended} other session${ended === 1 ? " was" : "s were"} signed out.`,
        passkeys === 0
          ? ""
          : passkeys === 1
            ? "Your passkey still signs in: remove it below if you do not recognise it."
            : `Your ${passkeys} passkeys still sign in: remove any you do not recognise below.`,
      ]
        .filter(Boolean)
        .join(" "),
    sessionsTitle: "Where you are signed in",
    sessionsLead: "If you see a device you do not know, end it and change your password.",
    thisDevice: "This device",
    unknownDevice: "Unknown device",
    unknownPlace: "place unknown",
    signedInAt: "Signed in",
    lastUsed: "last used",
    endSession: "End",
    endSessionLabel: (device: string) => `End the session on ${device}`,
    ending: "Ending…",
    sessionEnded: "That session is signed out.",
    endOthers: "Sign out everywhere else",
    othersEnded: (ended: number) =>
      ended === 0 ? "There were no other sessions." : `${ended} other session${ended === 1 ? "" : "s"} signed out.`,
    noOtherSessions: "You are signed in on this device only.",
    devicesTitle: "Remembered devices",
    devicesLead:
      "A device where you signed in with your password is remembered while you use it: if someone else keeps failing to sign in as you, it is not locked out. Forget one you no longer use, such as a shared computer. Forgetting it does not sign it out: end its session above.",
    noDevices: "No device is remembered. Signing in with your password remembers this one.",
    forgetHint: "Asked again to forget a device, so that someone with this session alone cannot.",
    rememberedSince: "Remembered since",
    forget: "Forget",
    forgetLabel: (device: string) => `Forget ${device}`,
    forgetting: "Forgetting…",
    deviceForgotten: "That device is forgotten.",
    codesTitle: "Recovery codes",
    codesLead:
      "If you forget your password, your handle and one recovery code let you set a new one. Each code works once. Keep them somewhere safe, away from this device.",
    codesRemaining: (remaining: number) => `${remaining} of 10 codes unused.`,
    codesMadeAt: "Made",
    codesLow: "You have few codes left: make a new set.",
    makeCodes: "Make new recovery codes",
    makingCodes: "Making…",
    makeCodesHint: "Enter your password. A new set replaces the old one: the old codes stop working.",
    password: "Password",
    fields: {
      displayName: "Enter the name others will see (up to 64 characters, no invisible characters).",
      currentPassword: "Enter your current password.",
      newPassword: "A new password has 10 to 256 characters.",
      password: "Enter your password.",
    },
  },
  "zh-CN": {
    profileTitle: "你的名字",
    handleIs: (handle: string) => `你的用户名是 @${handle}，不能更改。`,
    displayName: "显示名称",
    displayNameHint: "别人给你转账时在用户名旁看到的名字。",
    saveName: "保存名字",
    savingName: "正在保存…",
    nameSaved: "名字已保存。",
    passwordTitle: "密码",
    passwordLead: "更改密码后，其他所有设备上的登录都会退出。",
    currentPassword: "当前密码",
    newPassword: "新密码",
    newPasswordHint: "至少 10 个字符。",
    changePassword: "更改密码",
    changingPassword: "正在更改…",
    passwordChanged: (ended: number, passkeys: number) =>
      (ended === 0 ? "密码已更改。" : `密码已更改，已退出其他 ${ended} 个登录会话。`) +
      (passkeys === 0
        ? ""
        : passkeys === 1
          ? "你的通行密钥仍可登录，如不认识，请在下方删除。"
          : `你的 ${passkeys} 个通行密钥仍可登录，如有不认识的，请在下方删除。`),
    sessionsTitle: "登录的设备",
    sessionsLead: "如果看到不认识的设备，请结束该会话并更改密码。",
    thisDevice: "本设备",
    unknownDevice: "未知设备",
    unknownPlace: "地点未知",
    signedInAt: "登录于",
    lastUsed: "最近使用",
    endSession: "结束",
    endSessionLabel: (device: string) => `结束 ${device} 上的会话`,
    ending: "正在结束…",
    sessionEnded: "该会话已退出。",
    endOthers: "退出其他所有设备",
    othersEnded: (ended: number) => (ended === 0 ? "没有其他登录会话。" : `已退出其他 ${ended} 个登录会话。`),
    noOtherSessions: "你只在本设备上登录。",
    devicesTitle: "记住的设备",
    devicesLead:
      "用密码登录过的设备在你使用期间会被记住：即使有人不断以你的身份登录失败，该设备也不会被锁定。不再使用的设备（例如公用电脑）可以忘记。忘记设备不会让它退出登录，请在上方结束它的会话。",
    noDevices: "没有记住的设备。用密码登录后，本设备就会被记住。",
    forgetHint: "忘记设备需要再次输入密码，这样仅持有此会话的人无法这样做。",
    rememberedSince: "首次记住于",
    forget: "忘记",
    forgetLabel: (device: string) => `忘记 ${device}`,
    forgetting: "正在忘记…",
    deviceForgotten: "已忘记该设备。",
    codesTitle: "恢复码",
    codesLead: "如果忘记密码，可以用用户名和一个恢复码设置新密码。每个恢复码只能使用一次。请将它们保存在安全的地方，不要只存在本设备上。",
    codesRemaining: (remaining: number) => `10 个恢复码中还有 ${remaining} 个未使用。`,
    codesMadeAt: "生成于",
    codesLow: "剩余的恢复码不多了，请生成一组新的。",
    makeCodes: "生成新的恢复码",
    makingCodes: "正在生成…",
    makeCodesHint: "请输入密码。新的一组会替换旧的，旧恢复码将失效。",
    password: "密码",
    fields: {
      displayName: "请输入别人看到的名字（最多 64 个字符，不能含不可见字符）。",
      currentPassword: "请输入当前密码。",
      newPassword: "新密码须为 10 到 256 个字符。",
      password: "请输入密码。",
    },
  },
});
