/**
 * What a finance operator does with a WeChat Pay refund that needs a hand, beside it on its
 * order's page: return a failed one's money to the wallet (docs/decisions/048-failed-wechat-refunds.md),
 * settle one paid twice (060) or decide on such a settlement another operator asked for (072),
 * or settle a parked one as WeChat Pay says it ended (070).
 * Each form sends its intent to the order route's action.
 */
import { useFetcher } from "react-router";
import type { WechatRefund } from "#contract/ops-orders";
import type { OpsWechatRefund } from "#contract/ops-refunds";
import { failedWechatRefundStatuses } from "#contract/value-lists";
import { useAnnounceSuccess } from "../components/announcer";
import { Money } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, SelectField, SubmitButton, TextAreaField } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { DecisionForm } from "./decision-form";

/** A failed WeChat Pay refund's money back to the wallet of the order's owner (docs/decisions/048-failed-wechat-refunds.md). */
export function ReturnToWallet({ refund, owner }: { refund: WechatRefund; owner: string }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const done = fetcher.data?.ok ? text.returnedNow : "";
  useAnnounceSuccess(fetcher.data, done);
  const id = `ops-return-${refund.outRefundNo}`;
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {text.returnToWallet} · <Money amount={refund.amount} />
      </h3>
      <p className="hint">{text.returnHint(owner)}</p>
      <FormAlert result={fetcher.data} fields={["reason"]} />
      <input type="hidden" name="intent" value="return" />
      <input type="hidden" name="outRefundNo" value={refund.outRefundNo} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextAreaField
        id={`${id}-reason`}
        name="reason"
        label={text.returnReason}
        required
        rows={2}
        error={fieldError(fetcher.data, "reason")}
      />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.returnToWallet}>
        {text.returnToWallet}
      </SubmitButton>
    </fetcher.Form>
  );
}

/**
 * A refund returned to the wallet and paid out by WeChat Pay as well: its payout booked, taken
 * back from the wallet or borne by Paydesk, or nothing booked when WeChat Pay paid it to
 * Paydesk's own account (docs/decisions/060-refunds-paid-twice.md). Bearing it or finding it
 * paid to Paydesk past `threshold` waits for a second operator (072): while a settlement waits,
 * the form is closed, and says what it did.
 */
export function SettlePaidTwice({ refund, owner, threshold }: { refund: WechatRefund; owner: string; threshold: number }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult<OpsWechatRefund>>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const asked = fetcher.data?.ok && fetcher.data.data.returned?.settlementRequest?.status === "awaiting_approval";
  const done = fetcher.data?.ok ? (asked ? text.settlementWaitsNow : text.settledNow) : "";
  useAnnounceSuccess(fetcher.data, done);
  const id = `ops-settle-${refund.outRefundNo}`;
  // While a settlement waits, the form keeps its heading, what it did and why it was refused
  // (another asked first, say), without its fields.
  const open = !settlementWaiting(refund);
  if (!open && !fetcher.data) return null;
  return (
    // noValidate: the form's own check names what is missing, in the page's words.
    <fetcher.Form method="post" ref={formRef} className="ops-actions" aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>
        {text.settlePaidTwice} · <Money amount={refund.returned?.lateSuccessAmount ?? refund.amount} />
      </h3>
      <FormAlert result={fetcher.data} fields={open ? ["how", "reason"] : []} />
      {/* Once what it asked for is decided or withdrawn and the form opens again, "asked" is no longer so. */}
      {done && !(open && asked) ? (
        <p className="notice" role="status" data-testid="ops-settle-done">
          {done}
        </p>
      ) : null}
      {open ? (
        <SettleFields
          refund={refund}
          owner={owner}
          threshold={threshold}
          idempotencyKey={idempotencyKey}
          result={fetcher.data}
          busy={fetcher.state !== "idle" || !idempotencyKey}
        />
      ) : null}
    </fetcher.Form>
  );
}

/** The settlement form's fields: the way, the reason and the submit. */
function SettleFields({
  refund,
  owner,
  threshold,
  idempotencyKey,
  result,
  busy,
}: {
  refund: WechatRefund;
  owner: string;
  threshold: number;
  idempotencyKey: string;
  result: ActionResult<OpsWechatRefund> | undefined;
  busy: boolean;
}) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const id = `ops-settle-${refund.outRefundNo}`;
  return (
    <>
      <p className="hint">{text.settleHint(owner)}</p>
      <p className="hint">{text.settleThreshold(formatMoney(threshold, language))}</p>
      <input type="hidden" name="intent" value="settle" />
      <input type="hidden" name="outRefundNo" value={refund.outRefundNo} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SelectField
        id={`${id}-how`}
        name="how"
        label={text.settleHow}
        required
        defaultValue=""
        options={[
          { value: "", label: text.settleHowPlaceholder },
          { value: "take_back", label: text.takeBackFrom(owner) },
          { value: "bear", label: text.bearIt },
          { value: "to_paydesk", label: text.toPaydesk },
        ]}
        error={fieldError(result, "how")}
      />
      <TextAreaField id={`${id}-reason`} name="reason" label={text.settleReason} required rows={2} error={fieldError(result, "reason")} />
      <SubmitButton busy={busy} busyLabel={text.settlePaidTwice}>
        {text.settlePaidTwice}
      </SubmitButton>
    </>
  );
}

/**
 * Whoever asked takes back a settlement nobody has decided on yet, to settle the refund another
 * way or when no second operator can decide it. Once used, it keeps saying what it did.
 */
function WithdrawSettlement({ requestId, open }: { requestId: string; open: boolean }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const done = fetcher.data?.ok ? text.settlementWithdrawnNow : "";
  useAnnounceSuccess(fetcher.data, done);
  if (!open && !fetcher.data) return null;
  return (
    <fetcher.Form method="post" ref={formRef} className="form-actions">
      <FormAlert result={fetcher.data} fields={[]} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {open ? (
        <>
          <input type="hidden" name="intent" value="withdraw" />
          <input type="hidden" name="subjectId" value={requestId} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <button
            className="button button-secondary"
            type="submit"
            disabled={fetcher.state !== "idle" || !idempotencyKey}
            aria-describedby={`ops-settlement-${requestId}`}
          >
            {text.withdrawSettlement}
          </button>
        </>
      ) : null}
    </fetcher.Form>
  );
}

/** Whether a settlement of the refund waits for a second operator (docs/decisions/072-large-settlements-need-a-second-operator.md). */
const settlementWaiting = (refund: WechatRefund) => refund.returned?.settlementRequest?.status === "awaiting_approval";

/**
 * The second operator's decision on a settlement that waits, or why this operator cannot make
 * it. Once decided, a form that was used keeps saying what it did while the page is open.
 */
export function SettlementDecision({ refund, operatorHandle }: { refund: WechatRefund; operatorHandle: string }) {
  const text = useMessages(opsMessages);
  const request = refund.returned?.settlementRequest;
  if (!request) return null;
  const waiting = request.status === "awaiting_approval";
  const mine = request.requestedBy.handle === operatorHandle;
  return (
    <>
      {waiting && !request.yoursToDecide ? <p>{mine ? text.settlementAskedByYou : text.settlementNotYours}</p> : null}
      {mine ? <WithdrawSettlement requestId={request.id} open={waiting} /> : null}
      {/* Described by the line that says what waits (wechat-refund-line.tsx). */}
      <DecisionForm
        subjectId={request.id}
        approvedText={text.settlementApproved}
        rejectedText={text.settlementRejectedNow}
        open={waiting && request.yoursToDecide}
        describedBy={`ops-settlement-${request.id}`}
      />
    </>
  );
}

export const paidTwice = (refund: WechatRefund) => Boolean(refund.returned?.lateSuccessAt) && !refund.returned?.settled;

/** A settlement was asked for past the threshold: the page keeps its decision's form while it is open. */
export const settlementAsked = (refund: WechatRefund) => Boolean(refund.returned?.settlementRequest);

/** A refund WeChat Pay failed for good, and not parked for another amount, may go back to the wallet. */
export const returnable = (refund: WechatRefund) =>
  !refund.returned && !refund.parked && (failedWechatRefundStatuses as readonly string[]).includes(refund.status);

/** A parked refund: WeChat Pay reported another amount, and no operator has settled it yet. */
export const parkedUnsettled = (refund: WechatRefund) =>
  refund.parked && !refund.returned && !refund.otherAmount && refund.status !== "succeeded";

/**
 * A parked refund settled as WeChat Pay, asked again, says it ended: failed, returned to the
 * wallet; paid out for another amount, booked so (docs/decisions/070-parked-refunds-settled.md).
 */
export function SettleParked({ refund, owner }: { refund: WechatRefund; owner: string }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  useAnnounceSuccess(fetcher.data, fetcher.data?.ok ? text.settledParkedNow : "");
  const id = `ops-settle-parked-${refund.outRefundNo}`;
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {text.settleParked} · <Money amount={refund.amount} />
      </h3>
      <p className="hint">{text.settleParkedHint(owner)}</p>
      <FormAlert result={fetcher.data} fields={["reason"]} />
      <input type="hidden" name="intent" value="settleParked" />
      <input type="hidden" name="outRefundNo" value={refund.outRefundNo} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextAreaField
        id={`${id}-reason`}
        name="reason"
        label={text.settleParkedReason}
        required
        rows={2}
        error={fieldError(fetcher.data, "reason")}
      />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.settleParked}>
        {text.settleParked}
      </SubmitButton>
    </fetcher.Form>
  );
}
