import { Form, Link, redirect, useActionData, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { PasskeySignIn } from "../account/passkey-sign-in";
import { PartView } from "../components/part-view";
import { Spinner } from "../components/spinner";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, PasswordField, SubmitButton } from "../forms/fields";
import { submitWith } from "../forms/submit-part";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { loginMessages } from "../messages/login";
import { signedIn } from "../session/account-session";
import { safeNextPath } from "../session/safe-next";
import { useSession } from "../session/session-state";
import { partOnFirstUse, usePrefetchWhenIdle } from "../startup/on-first-use";
import { useStartup } from "../startup/startup-state";
import { useLayoutMessages } from "../i18n/layout-messages";

export function meta({ matches }: Route.MetaArgs) {
  const text = loginMessages[metaLanguage(matches)];
  return pageMeta(`${text.signInTitle} · Paydesk`, text.description);
}

const loginActions = partOnFirstUse("login-actions", () => import("../account/login-actions.client"));
const newAccountCodes = partOnFirstUse("new-account-codes", () => import("../account/new-account-codes.client"));

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult | Response> {
  const result = await submitWith(loginActions, request, ({ actOnLoginForm }, form) => actOnLoginForm(form));
  if (!result.ok) return result;
  signedIn(result.data.token, result.data.user);
  // A new account stays here to see its recovery codes once; a sign-in goes on at once.
  if (result.intent === "register") {
    // Its codes are shown as soon as the answer is: if their part cannot come now, it is
    // asked for again when they are shown.
    await newAccountCodes.prefetch();
    return result;
  }
  return redirect(safeNextPath(new URL(request.url).searchParams.get("next")));
}

export default function Login() {
  const { ready } = useStartup();
  const { user, session } = useSession();
  const text = useMessages(loginMessages);
  const layout = useLayoutMessages();
  const [params] = useSearchParams();
  const result = useActionData<typeof clientAction>() as ActionResult | undefined;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const next = safeNextPath(params.get("next"));
  const registering = params.get("mode") === "register";
  const title = registering ? text.registerTitle : text.signInTitle;
  const { formRef, idempotencyKey } = useFormInstance(result, { resetOnSuccess: false });
  usePrefetchWhenIdle(loginActions);

  return (
    <section className="narrow" aria-labelledby="login-title">
      <h1 id="login-title">{title}</h1>
      {result?.ok && result.intent === "register" && user ? (
        <PartView part={newAccountCodes}>
          {({ NewAccountCodes }) => (
            <NewAccountCodes codes={(result.data as { codes: string[] | null }).codes} handle={user.handle} next={next} />
          )}
        </PartView>
      ) : ready && user ? (
        <p>
          {text.signedInAs} <strong>{user.displayName}</strong> (@{user.handle}). <Link to={next}>{text.continue}</Link>
        </p>
      ) : (
        // Before start-up has said who is there, the server's HTML holds the loading state and
        // the form, and CSS shows one by the head's token mark: a visitor without a token sees
        // the form at the first paint. It is the same form once start-up is done (the same
        // elements in the same places, so nothing typed into it meanwhile is lost); until then
        // it cannot be sent (docs/decisions/032-login-at-first-paint.md).
        <>
          {ready ? null : (
            <div className="if-token">
              <Spinner label={layout.checkingSession} />
            </div>
          )}
          <div className={ready ? undefined : "if-no-token"}>
            {session === "unreachable" ? <p className="notice notice-warning">{text.unreachable}</p> : null}
            {registering ? null : <PasskeySignIn next={next} />}
            <Form method="post" className="form" ref={formRef} noValidate>
              <FormAlert result={result} fields={["handle", "displayName", "password"]} />
              <input type="hidden" name="intent" value={registering ? "register" : "login"} />
              <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
              <Field
                id="login-handle"
                label={text.handle}
                name="handle"
                hint={text.handleHint}
                // "webauthn": the browser may offer passkeys in this field's suggestions.
                autoComplete={registering ? "username" : "username webauthn"}
                required
                maxLength={32}
                autoCapitalize="none"
                spellCheck={false}
                error={fieldError(result, "handle")}
              />
              {registering ? (
                <Field
                  id="login-display-name"
                  label={text.displayName}
                  name="displayName"
                  hint={text.displayNameHint}
                  autoComplete="name"
                  required
                  error={fieldError(result, "displayName")}
                />
              ) : null}
              <PasswordField
                id="login-password"
                label={text.password}
                name="password"
                hint={registering ? text.passwordHint : undefined}
                autoComplete={registering ? "new-password" : "current-password"}
                error={fieldError(result, "password")}
              />
              <SubmitButton busy={submitting} busyLabel={registering ? text.creating : text.signingIn} waiting={!ready}>
                {title}
              </SubmitButton>
            </Form>
            <p>
              {registering ? (
                <Link to={`/login?next=${encodeURIComponent(next)}`}>{text.haveAccount}</Link>
              ) : (
                <>
                  <Link to={`/login?mode=register&next=${encodeURIComponent(next)}`}>{text.createAccount}</Link> ·{" "}
                  <Link to="/recover">{text.forgotPassword}</Link>
                </>
              )}
            </p>
          </div>
        </>
      )}
    </section>
  );
}
