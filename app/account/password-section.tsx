import { useFetcher } from "react-router";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, PasswordField, SubmitButton } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { accountMessages } from "../messages/account";

/** `passkeys`: how many the account has; they outlive the change, so the answer says so. */
export function PasswordSection({ handle, passkeys }: { handle: string; passkeys: number }) {
  const text = useMessages(accountMessages);
  const fetcher = useFetcher<ActionResult<{ sessionsEnded: number }>>();
  const result = fetcher.data;
  const { formRef } = useFormInstance(result);
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">{text.passwordTitle}</h2>
      <p>{text.passwordLead}</p>
      <fetcher.Form method="post" className="form" ref={formRef} noValidate>
        <FormAlert result={result} fields={["currentPassword", "newPassword"]} />
        <input type="hidden" name="intent" value="password" />
        {/* For password managers: which account the new password belongs to. */}
        <input type="text" name="username" value={handle} autoComplete="username" readOnly hidden />
        <PasswordField
          id="account-current-password"
          name="currentPassword"
          label={text.currentPassword}
          autoComplete="current-password"
          error={fieldError(result, "currentPassword")}
        />
        <PasswordField
          id="account-new-password"
          name="newPassword"
          label={text.newPassword}
          hint={text.newPasswordHint}
          autoComplete="new-password"
          error={fieldError(result, "newPassword")}
        />
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.changingPassword}>
          {text.changePassword}
        </SubmitButton>
      </fetcher.Form>
      <p role="status">{result?.ok ? text.passwordChanged(result.data.sessionsEnded, passkeys) : null}</p>
    </section>
  );
}
