import { Link } from "react-router";
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

export default function OpsRefunds({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const orders = useMessages(orderMessages);
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
                  <li key={refund.id} className="card">
                    <p>
                      <Money amount={refund.amount} /> · {orders.method[refund.method]} · {refund.reason}
                    </p>
                    <p className="item-meta">
                      <DateTime iso={refund.requestedAt} /> · {text.requestedBy(refund.requestedBy.displayName)} ·{" "}
                      <Link to={`/ops/orders/${refund.orderId}`}>{text.openOrder}</Link>
                    </p>
                    <DecisionForm subjectId={refund.id} approvedText={text.approved} rejectedText={text.rejected} />
                  </li>
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
