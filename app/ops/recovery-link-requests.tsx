/**
 * A person's recovery link on their page (docs/decisions/062-recovery-links-need-a-second-admin.md):
 * one admin asks, saying how they checked who the person is; another approves or rejects;
 * whoever asked issues the link, shown to them here, once. The page's action reads the
 * intents `recovery-link-ask`, `approve`, `reject` and `recovery-link-issue`.
 */
import { type FetcherWithComponents, useFetcher } from "react-router";
import type { RecoveryLink } from "#contract/account-safety";
import type { RecoveryLinkRequest } from "#contract/ops-recovery-links";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, TextAreaField } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { DecisionForm } from "./decision-form";
import { DecisionTrail } from "./decision-trail";
import { useOperator } from "./ops-context";

type IssuingFetcher = FetcherWithComponents<ActionResult<RecoveryLink>>;

function AskForm() {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult<RecoveryLinkRequest>>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  useAnnounceSuccess(fetcher.data, text.recoveryLinkAsked);
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions">
      <FormAlert result={fetcher.data} fields={["reason"]} />
      {fetcher.data?.ok ? (
        <p className="notice" role="status">
          {text.recoveryLinkAsked}
        </p>
      ) : null}
      <TextAreaField
        id="ops-recovery-reason"
        name="reason"
        label={text.recoveryLinkReason}
        required
        rows={2}
        error={fieldError(fetcher.data, "reason")}
      />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <div className="form-actions">
        <button
          className="button button-secondary"
          type="submit"
          name="intent"
          value="recovery-link-ask"
          disabled={fetcher.state !== "idle" || !idempotencyKey}
        >
          {text.recoveryLinkAsk}
        </button>
      </div>
    </fetcher.Form>
  );
}

function IssueForm({ request, issuing, describedBy }: { request: RecoveryLinkRequest; issuing: IssuingFetcher; describedBy: string }) {
  const text = useMessages(opsMessages);
  const { formRef, idempotencyKey } = useFormInstance(issuing.data);
  return (
    <issuing.Form method="post" ref={formRef} className="ops-actions">
      <input type="hidden" name="intent" value="recovery-link-issue" />
      <input type="hidden" name="requestId" value={request.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <button className="button" type="submit" disabled={issuing.state !== "idle" || !idempotencyKey} aria-describedby={describedBy}>
        {text.recoveryLinkIssue}
      </button>
    </issuing.Form>
  );
}

/** What issuing answered: the link, shown this once, or why not. It stays while the page does, whatever the list shows. */
function IssuedLink({ issuing }: { issuing: IssuingFetcher }) {
  const text = useMessages(opsMessages);
  useAnnounceSuccess(issuing.data, text.recoveryLinkIssued);
  if (!issuing.data) return null;
  const issued = issuing.data.ok ? issuing.data.data : null;
  return (
    <div className="card">
      <FormAlert result={issuing.data} fields={[]} />
      {issued ? (
        <div className="notice" role="status">
          <p>{text.recoveryLinkIssued}</p>
          <p>
            <code data-testid="ops-recovery-link">{new URL(issued.path, window.location.origin).href}</code>
          </p>
          <p>
            {text.recoveryLinkExpires} <DateTime iso={issued.expiresAt} />
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** A request, and what this admin may do with it. */
function RequestLine({ request, issuing, ownAccount }: { request: RecoveryLinkRequest; issuing: IssuingFetcher; ownAccount: boolean }) {
  const text = useMessages(opsMessages);
  const mine = request.requestedBy.handle === useOperator().handle;
  const open = request.status === "awaiting_approval" || request.status === "approved";
  const closed = open && Date.parse(request.openUntil) <= Date.now();
  const awaiting = request.status === "awaiting_approval" && !closed;
  const approved = request.status === "approved" && !closed;
  const what = `ops-recovery-${request.id}`;
  return (
    <li className="card">
      <p id={what}>
        <strong>{closed ? text.recoveryLinkStatusClosed : text.recoveryLinkStatus[request.status]}</strong> · {request.reason}
      </p>
      <p className="item-meta">
        <DecisionTrail request={request} openUntil={open && !closed ? request.openUntil : undefined} />
      </p>
      {closed ? <p>{text.recoveryLinkClosed}</p> : null}
      {mine && awaiting ? <p>{text.yourRecoveryLinkWaits}</p> : null}
      {!mine && !ownAccount && awaiting && !request.yoursToDecide ? <p>{text.anotherAdminDecides}</p> : null}
      {!mine && !ownAccount ? (
        <DecisionForm
          subjectId={request.id}
          approvedText={text.recoveryLinkApproved}
          rejectedText={text.recoveryLinkRejected}
          open={awaiting && request.yoursToDecide}
          describedBy={what}
        />
      ) : null}
      {mine && approved ? <IssueForm request={request} issuing={issuing} describedBy={what} /> : null}
      {!mine && approved ? <p>{text.recoveryLinkWaitsForIssuer(request.requestedBy.displayName)}</p> : null}
    </li>
  );
}

/** The recovery link section of a person's page, for admins. */
export function RecoveryLinkSection({ handle, requests }: { handle: string; requests: RecoveryLinkRequest[] }) {
  const text = useMessages(opsMessages);
  const issuing: IssuingFetcher = useFetcher<ActionResult<RecoveryLink>>();
  const ownAccount = handle === useOperator().handle;
  // One open request at a time: another would only ask the second admin twice.
  const openRequest = requests.some(
    (request) => (request.status === "awaiting_approval" || request.status === "approved") && Date.parse(request.openUntil) > Date.now(),
  );
  return (
    <section className="ops-actions" aria-labelledby="ops-recovery-title" data-testid="ops-recovery">
      <h2 id="ops-recovery-title">{text.recoveryLinkTitle}</h2>
      <p>{text.recoveryLinkLead}</p>
      <IssuedLink issuing={issuing} />
      {requests.length === 0 ? null : (
        <ul className="item-list" aria-label={text.recoveryLinkRequestsTitle} data-testid="ops-recovery-requests">
          {requests.map((request) => (
            <RequestLine key={request.id} request={request} issuing={issuing} ownAccount={ownAccount} />
          ))}
        </ul>
      )}
      {ownAccount ? <p>{text.recoveryLinkForYou}</p> : openRequest ? null : <AskForm />}
    </section>
  );
}
