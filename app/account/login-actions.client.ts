/*
 * What /login does on a submit: signing in, or making an account and its recovery codes.
 * A chunk fetched on first use (app/routes/login.tsx), not with the page's first visit
 * (docs/decisions/043-screens-after-start-up.md).
 */
import { register, signIn } from "../api/account";
import { makeRecoveryCodes } from "../api/account-safety";
import { signedInApi } from "../api/client";
import { attempt, checked, formText } from "../forms/action-result";
import { dispatchIntent } from "../forms/intent-dispatch";
import { currentLanguage } from "../i18n/messages";
import { loginFieldMessages } from "../messages/login-fields";
import { keepThisDeviceToken, thisDeviceTokenFor } from "../session/known-devices";
import { registerBodySchema, signInBodySchema } from "#contract/account";

const fieldMessages = () => loginFieldMessages[currentLanguage()];
const credentialsOf = (form: FormData) => ({ handle: formText(form, "handle").trim(), password: formText(form, "password") });

/** Signs in with the password from this browser's known device, if it is one, and keeps the token answered. */
async function signInHere(form: FormData) {
  const credentials = credentialsOf(form);
  const body = await checked(signInBodySchema, { ...credentials, deviceToken: thisDeviceTokenFor(credentials.handle) }, fieldMessages());
  const answer = await signIn(body);
  keepThisDeviceToken(answer.user.handle, answer.deviceToken);
  return answer;
}

const accountIntents = {
  login: (form: FormData) => attempt("login", () => signInHere(form)),
  register: (form: FormData) =>
    attempt("register", async () => {
      const body = await checked(
        registerBodySchema,
        { ...credentialsOf(form), displayName: formText(form, "displayName").trim() },
        fieldMessages(),
      );
      // A retry with the same key replays our own success, never HANDLE_TAKEN.
      await register(body, formText(form, "idempotencyKey"));
      const answer = await signInHere(form);
      // A new account's recovery codes, shown once (docs/decisions/024-account-safety.md). If
      // they cannot be made now, the account page offers them; the account exists either way.
      const codes = await makeRecoveryCodes(signedInApi(answer.token), body.password).then(
        (made) => made.codes,
        () => null,
      );
      return { ...answer, codes };
    }),
};

/** The sign-in form's intent (`login` or `register`), checked and sent. */
export function actOnLoginForm(form: FormData) {
  return dispatchIntent(form, accountIntents);
}
