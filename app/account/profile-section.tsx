import { useFetcher } from "react-router";
import type { UserInfo } from "#contract/user-info";
import { useAnnounceSuccess } from "../components/announcer";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, SubmitButton } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { accountMessages } from "../messages/account";

export function ProfileSection({ user }: { user: UserInfo }) {
  const text = useMessages(accountMessages);
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  const { formRef } = useFormInstance(result, { resetOnSuccess: false });
  useAnnounceSuccess(result, text.nameSaved);
  return (
    <section className="card" aria-labelledby="profile-title">
      <h2 id="profile-title">{text.profileTitle}</h2>
      <p>{text.handleIs(user.handle)}</p>
      <fetcher.Form method="post" className="form" ref={formRef} noValidate>
        <FormAlert result={result} fields={["displayName"]} />
        <input type="hidden" name="intent" value="profile" />
        <Field
          id="account-display-name"
          name="displayName"
          label={text.displayName}
          hint={text.displayNameHint}
          autoComplete="name"
          required
          defaultValue={user.displayName}
          error={fieldError(result, "displayName")}
        />
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.savingName}>
          {text.saveName}
        </SubmitButton>
      </fetcher.Form>
      <p role="status">{result?.ok ? text.nameSaved : null}</p>
    </section>
  );
}
