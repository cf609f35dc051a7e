import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { RecoveryCodes, RecoveryCodesStatus } from "#contract/account-safety";
import { DateTime } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, PasswordField, SubmitButton } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { accountMessages } from "../messages/account";
import { recoveryCodeMessages } from "../messages/recovery-codes";
import { RecoveryCodesShown } from "./recovery-codes-shown";

/** Fewer unused codes than this, and the page suggests a new set. */
const fewCodes = 3;

export function RecoveryCodesSection({ status, handle }: { status: RecoveryCodesStatus; handle: string }) {
  const text = useMessages(accountMessages);
  const codes = useMessages(recoveryCodeMessages);
  const fetcher = useFetcher<ActionResult<RecoveryCodes>>();
  const result = fetcher.data;
  const { formRef } = useFormInstance(result);
  // The codes stay on screen until the person says they kept them; never stored anywhere.
  const [shown, setShown] = useState<readonly string[] | null>(null);
  useEffect(() => {
    if (result?.ok) setShown(result.data.codes);
  }, [result]);
  // Back from the codes, the button pressed is gone: focus returns to this section's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  const backFromCodes = useRef(false);
  useEffect(() => {
    if (!shown && backFromCodes.current) heading.current?.focus();
  }, [shown]);
  if (shown) {
    const done = () => {
      backFromCodes.current = true;
      setShown(null);
    };
    return <RecoveryCodesShown codes={shown} handle={handle} onDone={done} />;
  }
  return (
    <section className="card" aria-labelledby="codes-title">
      <h2 id="codes-title" ref={heading} tabIndex={-1}>
        {text.codesTitle}
      </h2>
      <p>{text.codesLead}</p>
      <p data-testid="recovery-codes-status">
        {status.generatedAt ? (
          <>
            {text.codesRemaining(status.remaining)} {text.codesMadeAt} <DateTime iso={status.generatedAt} />.
          </>
        ) : (
          codes.codesNone
        )}
      </p>
      {status.generatedAt && status.remaining < fewCodes ? <p className="notice notice-warning">{text.codesLow}</p> : null}
      <fetcher.Form method="post" className="form" ref={formRef} noValidate>
        <FormAlert result={result} fields={["password"]} />
        <input type="hidden" name="intent" value="recoveryCodes" />
        <input type="text" name="username" value={handle} autoComplete="username" readOnly hidden />
        <PasswordField
          id="account-codes-password"
          name="password"
          label={text.password}
          hint={text.makeCodesHint}
          autoComplete="current-password"
          error={fieldError(result, "password")}
        />
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.makingCodes}>
          {text.makeCodes}
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
