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

const fieldMessages = () => loginFieldMessages[currentLanguage()];
const credentialsOf = (form: FormData) => ({ handle: formText(form, "handle").trim(), password: formText(form, "password") });

const accountIntents = {
  login: (form: FormData) =>
    attempt("login", async () => signIn(await checked((s) => s.signInBodySchema, credentialsOf(form), fieldMessages()))),
  register: (form: FormData) =>
    attempt("register", async () => {
      const body = await checked(
        (s) => s.registerBodySchema,
        { ...credentialsOf(form), displayName: formText(form, "displayName").trim() },
        fieldMessages(),
      );
      // A retry with the same key replays our own success, never HANDLE_TAKEN.
      await register(body, formText(form, "idempotencyKey"));
      const answer = await signIn(await checked((s) => s.signInBodySchema, credentialsOf(form), fieldMessages()));
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
