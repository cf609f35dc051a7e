import type { Route } from "./+types/account";
import {
  changePassword,
  changeProfile,
  endOtherSessions,
  endSession,
  listSessions,
  makeRecoveryCodes,
  recoveryCodesStatus,
} from "../api/account-safety";
import { passkeyIntents } from "../account/passkey-actions";
import { PasskeysSection } from "../account/passkeys-section";
import { PasswordSection } from "../account/password-section";
import { ProfileSection } from "../account/profile-section";
import { RecoveryCodesSection } from "../account/recovery-codes-section";
import { SessionsSection } from "../account/sessions-section";
import { listPasskeys } from "../api/passkeys";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { dispatchIntent } from "../forms/intent-dispatch";
import { currentLanguage, metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { accountMessages } from "../messages/account";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { refreshUser } from "../session/account-session";
import { useSession } from "../session/session-state";

// A composition of sections, each with its own module under app/account/: this route loads
// their data and hands each its forms.

export function meta({ matches }: Route.MetaArgs) {
  const text = accountMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientLoader() {
  return loadPersonal(async (api) => {
    const [sessions, passkeys, codes] = await Promise.all([listSessions(api), listPasskeys(api), recoveryCodesStatus(api)]);
    return { sessions, passkeys, codes };
  });
}
clientLoader.hydrate = true as const;

const fieldMessages = () => accountMessages[currentLanguage()].fields;

const accountIntents = {
  profile: (form: FormData) =>
    runAction("profile", async (api) => {
      const user = await changeProfile(
        api,
        await checked((s) => s.profileBodySchema, { displayName: formText(form, "displayName").trim() }, fieldMessages()),
      );
      // The header shows the name: read the user afresh.
      await refreshUser();
      return user;
    }),
  password: (form: FormData) =>
    runAction("password", async (api) =>
      changePassword(
        api,
        await checked(
          (s) => s.passwordChangeBodySchema,
          { currentPassword: formText(form, "currentPassword"), newPassword: formText(form, "newPassword") },
          fieldMessages(),
        ),
      ),
    ),
  endSession: (form: FormData) =>
    runAction("endSession", async (api) =>
      endSession(api, (await checked((s) => s.sessionIdParamSchema, { id: formText(form, "id") }, {})).id),
    ),
  endOthers: () => runAction("endOthers", (api) => endOtherSessions(api)),
  recoveryCodes: (form: FormData) =>
    runAction("recoveryCodes", async (api) =>
      makeRecoveryCodes(
        api,
        (await checked((s) => s.newRecoveryCodesBodySchema, { password: formText(form, "password") }, fieldMessages())).password,
      ),
    ),
};

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return dispatchIntent(await request.formData(), { ...accountIntents, ...passkeyIntents });
}

export function HydrateFallback() {
  const text = useMessages(accountMessages);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const text = useMessages(accountMessages);
  const { user } = useSession();
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{text.title}</h1>
      <PersonalView result={user ? loaderData : { state: "signed-out" }} purpose={text.purpose}>
        {({ sessions, passkeys, codes }) =>
          user ? (
            <>
              <ProfileSection user={user} />
              <PasswordSection handle={user.handle} />
              <SessionsSection sessions={sessions} />
              <PasskeysSection passkeys={passkeys} />
              <RecoveryCodesSection status={codes} handle={user.handle} />
            </>
          ) : null
        }
      </PersonalView>
    </section>
  );
}
