/*
 * The review queue for someone signed in, with its decisions: a chunk fetched on first use
 * (app/routes/check.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { useFetcher } from "react-router";
import type { Claim } from "#contract/tasks";
import { taskSchemas } from "../contract-schemas";
import { approveClaim, rejectClaim } from "../api/claims";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime, Money } from "../components/money";
import { PersonName } from "../components/person-name";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton, TextAreaField } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { currentLanguage, useMessages } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";
import { usePrefetchWhenIdle } from "../startup/on-first-use";

const decisions = {
  approve: (form: FormData) =>
    runAction("approve", (api) => approveClaim(api, formText(form, "id"), formText(form, "idempotencyKey")), { movesMoney: true }),
  reject: (form: FormData) =>
    runAction("reject", async (api) => {
      const body = await checked(
        (await taskSchemas.load()).rejectBodySchema,
        { reason: formText(form, "reason").trim() },
        taskMessages[currentLanguage()].fields,
      );
      return rejectClaim(api, formText(form, "id"), body, formText(form, "idempotencyKey"));
    }),
};

/** The queue's action: approve or reject a submission. */
export function actOnCheckForm(form: FormData): Promise<ActionResult> {
  return dispatchIntent(form, decisions);
}

function Decision({ claim }: { claim: Claim }) {
  const text = useMessages(taskMessages);
  const approve = useFetcher<ActionResult>();
  const reject = useFetcher<ActionResult>();
  const approval = useFormInstance(approve.data, { resetOnSuccess: false });
  const rejection = useFormInstance(reject.data, { resetOnSuccess: false });
  const busy = approve.state !== "idle" || reject.state !== "idle";
  useAnnounceSuccess(approve.data, text.decided);
  useAnnounceSuccess(reject.data, text.decided);
  return (
    <div className="check-decision">
      <approve.Form method="post" ref={approval.formRef}>
        <FormAlert result={approve.data} />
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="id" value={claim.id} />
        <input type="hidden" name="idempotencyKey" value={approval.idempotencyKey} />
        <SubmitButton
          busy={busy || !approval.idempotencyKey}
          busyLabel={text.approving}
          label={text.onTask(text.approve, text.submissionOf(claim.task.title, claim.worker.handle))}
        >
          {text.approve}
        </SubmitButton>
      </approve.Form>
      <reject.Form method="post" ref={rejection.formRef} className="form" noValidate>
        <FormAlert result={reject.data} fields={["reason"]} />
        <input type="hidden" name="intent" value="reject" />
        <input type="hidden" name="id" value={claim.id} />
        <input type="hidden" name="idempotencyKey" value={rejection.idempotencyKey} />
        <TextAreaField
          id={`reject-reason-${claim.id}`}
          name="reason"
          label={text.rejectReason}
          hint={text.rejectHint}
          required
          rows={2}
          error={fieldError(reject.data, "reason")}
        />
        <SubmitButton
          busy={busy || !rejection.idempotencyKey}
          busyLabel={text.rejecting}
          className="button button-secondary"
          label={text.onTask(text.reject, text.submissionOf(claim.task.title, claim.worker.handle))}
        >
          {text.reject}
        </SubmitButton>
      </reject.Form>
    </div>
  );
}

/** The submissions waiting for the poster's check, each with its two decisions. */
export function Queue({ claims }: { claims: Claim[] }) {
  usePrefetchWhenIdle(taskSchemas.part);
  const text = useMessages(taskMessages);
  if (claims.length === 0) return <p className="empty">{text.checkEmpty}</p>;
  return (
    <ul className="check-queue" aria-label={text.checkQueue}>
      {claims.map((claim) => (
        <li key={claim.id} className="task-card">
          <h2 className="task-title">{claim.task.title}</h2>
          <p className="task-worker">
            {text.doneBy} <PersonName person={claim.worker} />
          </p>
          <p>
            {text.reward} <Money amount={claim.task.reward} />
            {claim.submittedAt ? (
              <>
                {" "}
                · {text.submitted} <DateTime iso={claim.submittedAt} />
              </>
            ) : null}
            {claim.autoApproveAt ? (
              <>
                {" "}
                · {text.autoApproveAt} <DateTime iso={claim.autoApproveAt} />
              </>
            ) : null}
          </p>
          <p className="check-proof">{claim.proof?.text}</p>
          {claim.proof?.url ? (
            <p>
              <a href={claim.proof.url} rel="noopener noreferrer nofollow" target="_blank">
                {claim.proof.url}
              </a>
            </p>
          ) : null}
          <Decision claim={claim} />
        </li>
      ))}
    </ul>
  );
}
