import { Link } from "react-router";
import type { RefundRequest } from "#contract/ops-refunds";
import type { Route } from "./+types/ops-refunds";
import { decideRefund } from "../../api/ops";
import { DateTime, Money } from "../../components/money";
import { formText, runAction, type ActionResult } from "../../forms/action-result";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { orderMessages } from "../../messages/orders";
import { getRefundWork } from "../../ops/ops-loaders";
import { DecisionForm } from "../../ops/decision-form";
import { useOperator } from "../../ops/ops-context";
import { OpsView } from "../../ops/ops-view";
import { WechatRefundLine } from "../../ops/wechat-refund-line";

export async function clientLoader() {
  return getRefundWork();
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  const decide = (decision: "approve" | "reject") => (form: FormData) =>
    runAction(decision, (api) =>
      decideRefund(api, formText(form, "subjectId"), decision, formText(form, "note"), formText(form, "idempotencyKey")),
    );
  return dispatchIntent(await request.formData(), { approve: decide("approve"), reject: decide("reject") });
}

/** A refund awaiting a second operator, and what this operator may do with it (docs/decisions/065-no-refund-of-ones-own-order.md). */
function ApprovalLine({ refund }: { refund: RefundRequest }) {
  const text = useMessages(opsMessages);
  const orders = useMessages(orderMessages);
  const mine = refund.requestedBy.handle === useOperator().handle;
  const what = `ops-refund-${refund.id}`;
  return (
    <li className="card">
      <p id={what}>
        <Money amount={refund.amount} /> · {orders.method[refund.method]} · {refund.reason}
      </p>
      <p className="item-meta">
        <DateTime iso={refund.requestedAt} /> · {text.requestedBy(refund.requestedBy.displayName)} ·{" "}
        <Link to={`/ops/orders/${refund.orderId}`}>{text.openOrder}</Link>
      </p>
      {refund.yoursToDecide ? null : <p>{mine ? text.refundAskedByYou : text.refundNotYours}</p>}
      {/* Once decided, a form that was used keeps saying what it did, or why it was refused, while the page is open. */}
      <DecisionForm
        subjectId={refund.id}
        approvedText={text.approved}
        rejectedText={text.rejected}
        open={refund.yoursToDecide}
        describedBy={what}
      />
    </li>
  );
}

export default function OpsRefunds({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  return (
    <section aria-labelledby="ops-refunds-title">
      <h1 id="ops-refunds-title">{text.refundsTitle}</h1>
      <OpsView result={loaderData}>
        {({ approvals, needingAHand }) => (
          <>
            <h2>{text.approvalsTitle}</h2>
            {approvals.length === 0 ? (
              <p>{text.noApprovals}</p>
            ) : (
              <ul className="item-list" data-testid="ops-approvals">
                {approvals.map((refund) => (
                  <ApprovalLine key={refund.id} refund={refund} />
                ))}
              </ul>
            )}
            <h2>{text.needingAHandTitle}</h2>
            {needingAHand.length === 0 ? (
              <p>{text.noneNeedingAHand}</p>
            ) : (
              <ul className="item-list" data-testid="ops-refunds-needing-a-hand">
                {needingAHand.map((refund) => (
                  <WechatRefundLine key={refund.outRefundNo} refund={refund}>
                    <p className="item-meta">
                      {refund.person.displayName} (@{refund.person.handle}) ·{" "}
                      <Link to={`/ops/orders/${refund.orderId}`}>{text.openOrder}</Link>
                    </p>
                  </WechatRefundLine>
                ))}
              </ul>
            )}
          </>
        )}
      </OpsView>
    </section>
  );
}
