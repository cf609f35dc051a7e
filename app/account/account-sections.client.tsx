/*
 * The account page's sections for someone signed in, with their forms: a chunk fetched on
 * first use (app/routes/account.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import type { AccountDevice, AccountSession, RecoveryCodesStatus } from "#contract/account-safety";
import { accountSchemas } from "../contract-schemas";
import type { Passkey } from "#contract/passkeys";
import type { UserInfo } from "#contract/user-info";
import { changePassword, changeProfile, endOtherSessions, endSession, forgetDevice, makeRecoveryCodes } from "../api/account-safety";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { dispatchIntent } from "../forms/intent-dispatch";
import { currentLanguage } from "../i18n/messages";
import { accountMessages } from "../messages/account";
import { DevicesSection } from "./devices-section";
import { refreshUser } from "../session/account-session";
import { dropThisDeviceToken, keepThisDeviceToken } from "../session/known-devices";
import { getSessionState } from "../session/session-state";
import { passkeyIntents } from "./passkey-actions";
import { PasskeysSection } from "./passkeys-section";
import { PasswordSection } from "./password-section";
import { ProfileSection } from "./profile-section";
import { RecoveryCodesSection } from "./recovery-codes-section";
import { SessionsSection } from "./sessions-section";
import { usePrefetchWhenIdle } from "../startup/on-first-use";

const fieldMessages = () => accountMessages[currentLanguage()].fields;

const accountIntents = {
  profile: (form: FormData) =>
    runAction("profile", async (api) => {
      const user = await changeProfile(
        api,
        await checked(
          (await accountSchemas.load()).profileBodySchema,
          { displayName: formText(form, "displayName").trim() },
          fieldMessages(),
        ),
      );
      // The header shows the name: read the user afresh.
      await refreshUser();
      return user;
    }),
  password: (form: FormData) =>
    runAction("password", async (api) => {
      const changed = await changePassword(
        api,
        await checked(
          (await accountSchemas.load()).passwordChangeBodySchema,
          { currentPassword: formText(form, "currentPassword"), newPassword: formText(form, "newPassword") },
          fieldMessages(),
        ),
      );
      // Every known device was forgotten; this browser is the first new one (docs/decisions/061-known-devices.md).
      const handle = getSessionState().user?.handle;
      if (handle) keepThisDeviceToken(handle, changed.deviceToken);
      return changed;
    }),
  endSession: (form: FormData) =>
    runAction("endSession", async (api) =>
      endSession(api, (await checked((await accountSchemas.load()).sessionIdParamSchema, { id: formText(form, "id") }, {})).id),
    ),
  endOthers: () => runAction("endOthers", (api) => endOtherSessions(api)),
  // Which device: the value of the button pressed (app/account/devices-section.tsx).
  forgetDevice: (form: FormData) =>
    runAction("forgetDevice", async (api) => {
      const schemas = await accountSchemas.load();
      const body = await checked(schemas.forgetDeviceBodySchema, { password: formText(form, "password") }, fieldMessages());
      const { id } = await checked(schemas.deviceIdParamSchema, { id: formText(form, "id") }, {});
      const forgotten = await forgetDevice(api, id, body);
      // This browser forgotten: the token it keeps now proves nothing, and would only be sent in vain.
      const handle = getSessionState().user?.handle;
      if (id === formText(form, "thisDevice") && handle) dropThisDeviceToken(handle);
      return forgotten;
    }),
  recoveryCodes: (form: FormData) =>
    runAction("recoveryCodes", async (api) =>
      makeRecoveryCodes(
        api,
        (await checked((await accountSchemas.load()).newRecoveryCodesBodySchema, { password: formText(form, "password") }, fieldMessages()))
          .password,
      ),
    ),
};

/** The page's action: the intent of whichever section's form was sent. */
export function actOnAccountForm(form: FormData): Promise<ActionResult> {
  return dispatchIntent(form, { ...accountIntents, ...passkeyIntents });
}

type Sections = { user: UserInfo; sessions: AccountSession[]; devices: AccountDevice[]; passkeys: Passkey[]; codes: RecoveryCodesStatus };

/** A composition of sections, each with its own module: this hands each its data. */
export function AccountSections({ user, sessions, devices, passkeys, codes }: Sections) {
  usePrefetchWhenIdle(accountSchemas.part);
  return (
    <>
      <ProfileSection user={user} />
      <PasswordSection handle={user.handle} passkeys={passkeys.length} />
      <SessionsSection sessions={sessions} />
      <DevicesSection devices={devices} handle={user.handle} />
      <PasskeysSection passkeys={passkeys} handle={user.handle} />
      <RecoveryCodesSection status={codes} handle={user.handle} />
    </>
  );
}
