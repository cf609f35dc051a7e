import type { ReactNode } from "react";
import type { WechatRefund } from "#contract/ops-orders";
import { DateTime, Money } from "../components/money";
import { formatDateTime, formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";

/**
 * One WeChat Pay refund as the back office shows it: why, where it stands at WeChat Pay, what
 * went wrong, its return to a wallet (docs/decisions/048-failed-wechat-refunds.md), and the
 * settlement of one paid twice (docs/decisions/060-refunds-paid-twice.md), waiting for a second
 * operator when large (072), or of a parked one
 * WeChat Pay paid out for another amount (docs/decisions/070-parked-refunds-settled.md), and
 * when WeChat Pay is next asked about a returned one (docs/decisions/071-returned-refunds-asked-again.md).
 * `children` goes below it: a link to its order, or the return form.
 */
export function WechatRefundLine({ refund, children }: { refund: WechatRefund; children?: ReactNode }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const state = refund.returned ? text.returnedTo(refund.returned.to.displayName) : text.wechatRefundState[refund.status];
  const settledWords = { take_back: text.settledTakeBack, bear: text.settledBear, to_paydesk: text.settledToPaydesk };
  const settled = refund.returned?.settled;
  // The newest settlement asked for past the threshold (docs/decisions/072-large-settlements-need-a-second-operator.md).
  const request = settled ? null : refund.returned?.settlementRequest;
  return (
    <li className="card" data-testid="ops-wechat-refund">
      <p>
        <Money amount={refund.amount} /> · {text.wechatRefundReason[refund.reason]} · <span className="badge">{state}</span>
      </p>
      <p className="item-meta">
        <code>{refund.outRefundNo}</code> · {text.refundAttempts(refund.attempts)} · <DateTime iso={refund.updatedAt} />
      </p>
      {refund.parked ? <p className="form-error">{text.parked}</p> : null}
      {refund.lastError ? (
        <p className="item-meta">
          <code>{refund.lastError}</code>
        </p>
      ) : null}
      {refund.returned ? (
        <p className="item-meta">
          <DateTime iso={refund.returned.at} /> · {text.returnedBy(refund.returned.by.displayName)} · {refund.returned.reason}
        </p>
      ) : null}
      {refund.returned?.nextAskAt ? (
        <p className="item-meta" data-testid="ops-refund-next-ask">
          {text.nextAsk(formatDateTime(refund.returned.nextAskAt, language))}
        </p>
      ) : null}
      {refund.returned?.lateSuccessAt && !refund.returned.settled ? (
        <p className="form-error">
          {refund.returned.lateSuccessAccount ? text.lateSuccessTo(refund.returned.lateSuccessAccount) : text.lateSuccess}
        </p>
      ) : null}
      {request?.status === "awaiting_approval" ? (
        <p className="notice" data-testid="ops-settlement-waiting" id={`ops-settlement-${request.id}`}>
          <DateTime iso={request.requestedAt} /> ·{" "}
          {text.settlementWaiting(text.settlementHow[request.how], request.requestedBy.displayName)} · <Money amount={request.amount} /> ·{" "}
          {request.reason}
        </p>
      ) : null}
      {request?.status === "rejected" ? (
        <p className="item-meta" data-testid="ops-settlement-rejected">
          <DateTime iso={request.decidedAt ?? request.requestedAt} /> · {text.settlementRejected(request.decidedBy?.displayName ?? "")} ·{" "}
          {request.decisionNote}
        </p>
      ) : null}
      {request?.status === "withdrawn" ? (
        <p className="item-meta" data-testid="ops-settlement-withdrawn">
          <DateTime iso={request.decidedAt ?? request.requestedAt} /> · {text.settlementWithdrawn(request.requestedBy.displayName)}
        </p>
      ) : null}
      {settled ? (
        <p className="item-meta" data-testid="ops-paid-twice-settled">
          <DateTime iso={settled.at} /> · {settledWords[settled.how](settled.by.displayName)}
          {settled.approvedBy ? ` · ${text.settlementApprovedBy(settled.approvedBy.displayName)}` : ""} · {settled.reason}
        </p>
      ) : null}
      {refund.otherAmount ? (
        <p className="item-meta" data-testid="ops-other-amount-settled">
          <DateTime iso={refund.otherAmount.at} /> ·{" "}
          {text.otherAmountSettled(formatMoney(refund.otherAmount.refunded, language), refund.otherAmount.by.displayName)} ·{" "}
          {refund.amount > refund.otherAmount.refunded
            ? text.otherAmountRest(formatMoney(refund.amount - refund.otherAmount.refunded, language))
            : text.otherAmountBorne(formatMoney(refund.otherAmount.refunded - refund.amount, language))}{" "}
          · {refund.otherAmount.reason}
        </p>
      ) : null}
      {children}
    </li>
  );
}
