import { type FetcherWithComponents, useFetcher } from "react-router";
import type { Route } from "./+types/ops-codes";
import type { CodeBatch, CodeBatchRequest } from "#contract/ops-codes";
import {
  codeBatches,
  codeBatchRequests,
  decideCodeBatchRequest,
  issueApprovedCodeBatch,
  issueCodeBatch,
  type IssuedCodeBatch,
  voidCodeBatch,
  type WaitingCodeBatch,
} from "../../api/ops";
import { useAnnounceSuccess } from "../../components/announcer";
import { DateTime, Money } from "../../components/money";
import { codeBatchSchemas } from "../../contract-schemas";
import { checked, formText, runAction, type ActionResult } from "../../forms/action-result";
import { Field, FormAlert, MoneyField, SubmitButton, TextAreaField } from "../../forms/fields";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { fieldError } from "../../forms/failure-fields";
import { useFormInstance } from "../../forms/use-form-instance";
import { parseYuan } from "../../i18n/format";
import { currentLanguage, useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { saveFile } from "../../api/download";
import { useOperator } from "../../ops/ops-context";
import { DecisionForm } from "../../ops/decision-form";
import { DecisionTrail } from "../../ops/decision-trail";
import { OpsView } from "../../ops/ops-view";
import { loadPersonal } from "../../personal/load-personal";
import { usePrefetchWhenIdle } from "../../startup/on-first-use";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  return loadPersonal(async (api) => {
    const [page, requests] = await Promise.all([codeBatches(api, cursor), codeBatchRequests(api)]);
    return { page, requests };
  });
}

/** The end of the chosen day, in China (UTC+8), as the expiry. */
function expiryOf(day: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T23:59:59+08:00`).toISOString() : null;
}

const decide = (decision: "approve" | "reject") => (form: FormData) =>
  runAction(decision, (api) =>
    decideCodeBatchRequest(api, formText(form, "subjectId"), decision, formText(form, "note"), formText(form, "idempotencyKey")),
  );

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return dispatchIntent(await request.formData(), {
    issue: (form) =>
      runAction("issue", async (api) => {
        const text = opsMessages[currentLanguage()];
        const body = await checked(
          (await codeBatchSchemas.load()).issueCodeBatchBodySchema,
          {
            value: parseYuan(formText(form, "value")),
            count: Number(formText(form, "count")),
            expiresAt: expiryOf(formText(form, "expiresAt")),
            note: formText(form, "note"),
          },
          { value: text.amountInvalid, count: text.codeCountInvalid, expiresAt: text.codeExpiryInvalid, note: text.reasonMissing },
        );
        return issueCodeBatch(api, body, formText(form, "idempotencyKey"));
      }),
    void: (form) =>
      runAction("void", (api) => voidCodeBatch(api, formText(form, "batchId"), formText(form, "reason"), formText(form, "idempotencyKey"))),
    approve: decide("approve"),
    reject: decide("reject"),
    "issue-approved": (form) =>
      runAction("issue-approved", (api) => issueApprovedCodeBatch(api, formText(form, "requestId"), formText(form, "idempotencyKey"))),
  });
}

/** The codes of a new batch: on this page only, once (docs/decisions/016-ticket-desk-and-code-batches.md). */
function IssuedCodes({ issued }: { issued: IssuedCodeBatch }) {
  const text = useMessages(opsMessages);
  return (
    <div className="notice" data-testid="ops-issued-codes">
      <p>{text.issuedLead(issued.codes.length)}</p>
      <button
        type="button"
        className="button"
        onClick={() => saveFile(new Blob([issued.csv], { type: "text/csv;charset=utf-8" }), `${issued.batch.id}.csv`)}
      >
        {text.downloadCsv}
      </button>
      <ul>
        {issued.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What issuing answered: the codes, or (past what one operator may issue alone) the request that waits. */
function IssueOutcome({ outcome }: { outcome: IssuedCodeBatch | WaitingCodeBatch }) {
  const text = useMessages(opsMessages);
  if ("request" in outcome) {
    return (
      <p className="notice" data-testid="ops-batch-waits">
        {text.batchWaits}
      </p>
    );
  }
  return <IssuedCodes issued={outcome} />;
}

function IssueForm() {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult<IssuedCodeBatch | WaitingCodeBatch>>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const outcome = fetcher.data?.ok ? fetcher.data.data : null;
  useAnnounceSuccess(fetcher.data, outcome === null ? "" : "request" in outcome ? text.batchWaits : text.issuedLead(outcome.codes.length));
  return (
    <fetcher.Form method="post" ref={formRef} className="card ops-actions" aria-labelledby="ops-issue-title">
      <h2 id="ops-issue-title">{text.issueTitle}</h2>
      <FormAlert result={fetcher.data} fields={["value", "count", "expiresAt", "note"]} />
      <input type="hidden" name="intent" value="issue" />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <MoneyField id="ops-code-value" name="value" label={text.codeValue} error={fieldError(fetcher.data, "value")} />
      <Field
        id="ops-code-count"
        name="count"
        label={text.codeCount}
        type="number"
        min={1}
        max={1000}
        required
        error={fieldError(fetcher.data, "count")}
      />
      <Field
        id="ops-code-expiry"
        name="expiresAt"
        label={text.codeExpiry}
        type="date"
        required
        error={fieldError(fetcher.data, "expiresAt")}
      />
      <TextAreaField id="ops-code-note" name="note" label={text.codeNote} required rows={2} error={fieldError(fetcher.data, "note")} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.issue}>
        {text.issue}
      </SubmitButton>
      {outcome ? <IssueOutcome outcome={outcome} /> : null}
    </fetcher.Form>
  );
}

type IssuingFetcher = FetcherWithComponents<ActionResult<IssuedCodeBatch>>;

/**
 * Whoever asked issues an approved batch (docs/decisions/049-code-batches-need-a-second-operator.md).
 * The page's one fetcher sends it, so that the codes, shown once, stay on the page however
 * the list changes when it is read again.
 */
function IssueApproved({ request, issuing }: { request: CodeBatchRequest; issuing: IssuingFetcher }) {
  const text = useMessages(opsMessages);
  const { formRef, idempotencyKey } = useFormInstance(issuing.data);
  return (
    <issuing.Form method="post" ref={formRef} className="ops-actions">
      <input type="hidden" name="intent" value="issue-approved" />
      <input type="hidden" name="requestId" value={request.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton busy={issuing.state !== "idle" || !idempotencyKey} busyLabel={text.issueApproved}>
        {text.issueApproved}
      </SubmitButton>
    </issuing.Form>
  );
}

/** What issuing an approved batch answered: its codes, or why not. */
function ApprovedIssueOutcome({ issuing }: { issuing: IssuingFetcher }) {
  const text = useMessages(opsMessages);
  useAnnounceSuccess(issuing.data, issuing.data?.ok ? text.issuedLead(issuing.data.data.codes.length) : "");
  if (!issuing.data) return null;
  return (
    <div className="card" data-testid="ops-approved-issue">
      <FormAlert result={issuing.data} fields={[]} />
      {issuing.data.ok ? <IssuedCodes issued={issuing.data.data} /> : null}
    </div>
  );
}

/** A batch that waits for a second operator, or waits to be issued: what this operator may do with it. */
function BatchRequestLine({ request, issuing }: { request: CodeBatchRequest; issuing: IssuingFetcher }) {
  const text = useMessages(opsMessages);
  const mine = request.requestedBy.handle === useOperator().handle;
  const expired = Date.parse(request.expiresAt) <= Date.now();
  const awaiting = request.status === "awaiting_approval" && !expired;
  const approved = request.status === "approved" && !expired;
  return (
    <li className="card">
      <p>
        <strong>{request.note}</strong> · <Money amount={request.value} /> × {request.count} · {text.batchRequestStatus[request.status]}
      </p>
      <p className="item-meta">
        <DecisionTrail request={request} />
      </p>
      {expired && (request.status === "awaiting_approval" || request.status === "approved") ? <p>{text.batchRequestExpired}</p> : null}
      {mine && awaiting ? <p>{text.yourBatchWaits}</p> : null}
      {!mine && awaiting && !request.yoursToDecide ? <p>{text.batchNotYours}</p> : null}
      {/* Once decided, a form that was used keeps saying what it did, or why it was refused, while the page is open. */}
      {mine ? null : (
        <DecisionForm
          subjectId={request.id}
          approvedText={text.batchApproved}
          rejectedText={text.batchRejected}
          open={awaiting && request.yoursToDecide}
        />
      )}
      {mine && approved ? <IssueApproved request={request} issuing={issuing} /> : null}
      {!mine && approved ? <p>{text.waitsForIssuer(request.requestedBy.displayName)}</p> : null}
    </li>
  );
}

function VoidForm({ batch }: { batch: CodeBatch }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  useAnnounceSuccess(fetcher.data, text.voidedDone);
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions">
      <FormAlert result={fetcher.data} fields={["reason"]} />
      <input type="hidden" name="intent" value="void" />
      <input type="hidden" name="batchId" value={batch.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <Field id={`ops-void-${batch.id}`} name="reason" label={text.voidReason} required error={fieldError(fetcher.data, "reason")} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.voidBatch} className="button button-secondary">
        {text.voidBatch}
      </SubmitButton>
    </fetcher.Form>
  );
}

export default function OpsCodes({ loaderData }: Route.ComponentProps) {
  usePrefetchWhenIdle(codeBatchSchemas.part);
  const text = useMessages(opsMessages);
  const issuing: IssuingFetcher = useFetcher<ActionResult<IssuedCodeBatch>>();
  return (
    <section aria-labelledby="ops-codes-title">
      <h1 id="ops-codes-title">{text.codesTitle}</h1>
      <IssueForm />
      <ApprovedIssueOutcome issuing={issuing} />
      <OpsView result={loaderData}>
        {({ page, requests }) => (
          <>
            <h2>{text.batchRequestsTitle}</h2>
            {requests.length === 0 ? (
              <p>{text.noBatchRequests}</p>
            ) : (
              <ul className="item-list" data-testid="ops-batch-requests">
                {requests.map((request) => (
                  <BatchRequestLine key={request.id} request={request} issuing={issuing} />
                ))}
              </ul>
            )}
            <h2>{text.issuedBatchesTitle}</h2>
            {page.batches.length === 0 ? (
              <p>{text.noBatches}</p>
            ) : (
              <ul className="item-list" data-testid="ops-batches">
                {page.batches.map((batch) => (
                  <li key={batch.id} className="card">
                    <p>
                      <strong>{batch.note ?? batch.id}</strong> · <Money amount={batch.value} /> × {batch.count}
                    </p>
                    <p className="item-meta">
                      <DateTime iso={batch.issuedAt} /> → <DateTime iso={batch.expiresAt} /> ·{" "}
                      {text.batchLine(batch.redeemed, batch.unredeemed, batch.voided, batch.expired)}
                    </p>
                    {batch.voidedAt === null && batch.unredeemed > 0 ? <VoidForm batch={batch} /> : null}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </OpsView>
    </section>
  );
}
