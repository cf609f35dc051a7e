import { useSyncExternalStore } from "react";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/recover";
import type { SignInAnswer } from "#contract/account";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, PasswordField, SubmitButton } from "../forms/fields";
import { submitWith } from "../forms/submit-part";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { recoverMessages } from "../messages/recover";
import { signedIn } from "../session/account-session";
import { partOnFirstUse, usePrefetchWhenIdle } from "../startup/on-first-use";
import { safeStorage } from "../storage/safe-storage";
import { forgetRecoveryLink, heldRecoveryLink, recoveryLinkPath, takeRecoveryLink } from "../account/recovery-link";

export function meta({ matches }: Route.MetaArgs) {
  const text = recoverMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

const recoverActions = partOnFirstUse("recover-actions", () => import("../account/recover-actions.client"));

const tab = safeStorage(() => window.sessionStorage);

// A landing on /recover?link=… loads this module before the router reads the address and
// before start-up starts error reporting: the link leaves the address bar here, once
// (app/account/recovery-link.ts). Kept here as well, for a tab whose storage is blocked.
let landedLink =
  typeof window === "undefined"
    ? null
    : takeRecoveryLink({ href: window.location.href, replace: (url) => window.history.replaceState(window.history.state, "", url) }, tab);

/** The recovery link this tab holds, in the browser. */
const tabsLink = () => landedLink ?? heldRecoveryLink(tab);
/** Nothing to watch: the link changes only when a submit lets it go, which renders the page again. */
const noChanges = () => () => {};

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  const link = tabsLink();
  const result = await submitWith(recoverActions, request, ({ actOnRecoverForm }, form) => {
    // The link is never written into the page: the submit adds it.
    if (link !== null) form.set("link", link);
    return actOnRecoverForm(form);
  });
  // A link used, refused as unknown, used or expired, or cut short, is let go: the form asks for
  // a code then, under the refusal.
  if (
    result.intent === "link" &&
    (result.ok ||
      result.failure.code === "INVALID_RECOVERY" ||
      result.failure.field === "link" ||
      result.failure.fields?.link !== undefined)
  ) {
    landedLink = null;
    forgetRecoveryLink(tab);
  }
  // Signed in with the new password at once: every earlier session has ended.
  if (result.ok) {
    const { token, user } = result.data as SignInAnswer;
    signedIn(token, user);
  }
  return result;
}

export default function Recover() {
  const text = useMessages(recoverMessages);
  const [params] = useSearchParams();
  // Which form to draw. The server goes by the address's link, which it never writes into the
  // page; hydration by whether this page was opened with one, as the server saw it; then the
  // browser by the tab's (after a reload, the address no longer has it).
  const link = useSyncExternalStore(noChanges, tabsLink, typeof window === "undefined" ? () => params.get("link") : () => landedLink);
  const result = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const { formRef } = useFormInstance(result, { resetOnSuccess: false });
  usePrefetchWhenIdle(recoverActions);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  if (result?.ok) {
    return (
      <section className="narrow" aria-labelledby="recover-title">
        <h1 id="recover-title">{text.title}</h1>
        <p role="status">{text.recovered}</p>
        <p>
          <Link className="button" to="/account">
            {text.toAccount}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow" aria-labelledby="recover-title">
      <h1 id="recover-title">{text.title}</h1>
      <p>{link ? text.linkLead : text.lead}</p>
      {/* Its own address, not the one the page was opened at, which held the link. */}
      <Form method="post" action={recoveryLinkPath} className="form" ref={formRef} noValidate>
        <FormAlert result={result} fields={link ? ["newPassword"] : ["handle", "code", "newPassword"]} />
        <input type="hidden" name="intent" value={link ? "link" : "code"} />
        {link ? null : (
          <>
            <Field
              id="recover-handle"
              name="handle"
              label={text.handle}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={33}
              error={fieldError(result, "handle")}
            />
            <Field
              id="recover-code"
              name="code"
              label={text.code}
              hint={text.codeHint}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              required
              maxLength={40}
              error={fieldError(result, "code")}
            />
          </>
        )}
        <PasswordField
          id="recover-new-password"
          name="newPassword"
          label={text.newPassword}
          hint={text.newPasswordHint}
          autoComplete="new-password"
          error={fieldError(result, "newPassword")}
        />
        <SubmitButton busy={busy} busyLabel={text.settingPassword}>
          {text.setPassword}
        </SubmitButton>
      </Form>
      {link ? null : (
        <p>
          {text.noCodes} <Link to="/contact">{text.contactSupport}</Link>
        </p>
      )}
    </section>
  );
}
