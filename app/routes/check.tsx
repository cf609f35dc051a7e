import { useFetcher } from "react-router";
import type { Route } from "./+types/check";
import type { Claim } from "#contract/tasks";
import { approveClaim, listClaims, rejectClaim } from "../api/claims";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime, Money } from "../components/money";
import { PersonName } from "../components/person-name";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton, TextAreaField } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { fieldError, useFormInstance } from "../forms/use-form-instance";
import { currentLanguage, metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { taskMessages } from "../messages/tasks";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";

export function meta({ matches }: Route.MetaArgs) {
  const text = taskMessages[metaLanguage(matches)];
  return pageMeta(`${text.checkTitle} · Paydesk`, text.checkDescription);
}

export async function clientLoader() {
  return loadPersonal((api) => listClaims(api, "to_check"));
}
clientLoader.hydrate = true as const;

const decisions = {
  approve: (form: FormData) =>
    runAction("approve", (api) => approveClaim(api, formText(form, "id"), formText(form, "idempotencyKey")), { movesMoney: true }),
  reject: (form: FormData) =>
    runAction("reject", async (api) => {
      const body = await checked(
        (s) => s.rejectBodySchema,
        { reason: formText(form, "reason").trim() },
        taskMessages[currentLanguage()].fields,
      );
      return rejectClaim(api, formText(form, "id"), body, formText(form, "idempotencyKey"));
    }),
};

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return dispatchIntent(await request.formData(), decisions);
}

export function HydrateFallback() {
  const text = useMessages(taskMessages);
  return (
    <section aria-labelledby="check-title">
      <h1 id="check-title">{text.checkTitle}</h1>
      <PersonalFallback purpose={text.checkPurpose} />
    </section>
  );
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
        <SubmitButton busy={busy || !approval.idempotencyKey} busyLabel={text.approving}>
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
          maxLength={500}
          rows={2}
          error={fieldError(reject.data, "reason")}
        />
        <SubmitButton busy={busy || !rejection.idempotencyKey} busyLabel={text.rejecting} className="button button-secondary">
          {text.reject}
        </SubmitButton>
      </reject.Form>
    </div>
  );
}

function Queue({ claims }: { claims: Claim[] }) {
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

export default function Check({ loaderData }: Route.ComponentProps) {
  const text = useMessages(taskMessages);
  return (
    <section aria-labelledby="check-title">
      <h1 id="check-title">{text.checkTitle}</h1>
      <p className="hint">{text.autoApprove}</p>
      <PersonalView result={loaderData} purpose={text.checkPurpose}>
        {(claims) => <Queue claims={claims} />}
      </PersonalView>
    </section>
  );
}
