import { useFetcher } from "react-router";
import type { Claim } from "#contract/tasks";
import { useAnnounceSuccess } from "../components/announcer";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, SubmitButton, TextAreaField } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";
import { sayLength, useTextLimits } from "../text-limits";

/** The proof of a claimed task's work, sent for the poster's check. */
export function SubmitProofForm({ claim }: { claim: Claim }) {
  const text = useMessages(taskMessages);
  const proofLength = useTextLimits().proof.text;
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  const { formRef, idempotencyKey } = useFormInstance(result, { resetOnSuccess: false });
  useAnnounceSuccess(result, text.proofSubmitted);
  return (
    <fetcher.Form method="post" ref={formRef} className="form" noValidate>
      <FormAlert result={result} fields={["text", "url"]} />
      <input type="hidden" name="intent" value="submit" />
      <input type="hidden" name="id" value={claim.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextAreaField
        id={`proof-${claim.id}`}
        name="text"
        label={text.proof}
        hint={text.proofHint(sayLength(proofLength))}
        required
        rows={4}
        error={fieldError(result, "text")}
      />
      <Field
        id={`proof-url-${claim.id}`}
        name="url"
        type="url"
        label={text.proofUrl}
        hint={text.proofUrlHint}
        maxLength={2048}
        error={fieldError(result, "url")}
      />
      <SubmitButton
        busy={fetcher.state !== "idle" || !idempotencyKey}
        busyLabel={text.submitting}
        label={text.onTask(text.submit, claim.task.title)}
      >
        {text.submit}
      </SubmitButton>
    </fetcher.Form>
  );
}
