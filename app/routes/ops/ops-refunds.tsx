import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/ops-refunds";
import type { RefundRequest } from "#contract/ops-refunds";
import { decideRefund } from "../../api/ops";
import { useAnnounceSuccess } from "../../components/announcer";
import { DateTime, Money } from "../../components/money";
import { formText, runAction, type ActionResult } from "../../forms/action-result";
import { FormAlert, TextAreaField } from "../../forms/fields";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { fieldError } from "../../forms/failure-fields";
import { useFormInstance } from "../../forms/use-form-instance";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { orderMessages } from "../../messages/orders";
import { getRefundWork } from "../../ops/ops-loaders";
import { OpsView } from "../../ops/ops-view";
import { WechatRefundLine } from "../../ops/wechat-refund-line";

export async function clientLoader() {
  return getRefundWork();
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  const decide = (decision: "approve" | "reject") => (form: FormData) =>
    runAction(decision, (api) =>
      decideRefund(api, formText(form, "refundId"), decision, formText(form, "note"), formText(form, "idempotencyKey")),
    );
  return dispatchIntent(await request.formData(), { approve: decide("approve"), reject: decide("reject") });
}

/** Approve or reject another operator's refund: maker-checker (docs/decisions/015-operator-refunds.md). */
function Decision({ refund }: { refund: RefundRequest }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const done = fetcher.data?.ok ? (fetcher.data.intent === "approve" ? text.approved : text.rejected) : "";
  useAnnounceSuccess(fetcher.data, done);
  const busy = fetcher.state !== "idle" || !idempotencyKey;
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions">
      <FormAlert result={fetcher.data} fields={["reason", "note"]} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <input type="hidden" name="refundId" value={refund.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextAreaField
        id={`ops-note-${refund.id}`}
        name="note"
        label={text.decisionNote}
        maxLength={500}
        rows={2}
        error={fieldError(fetcher.data, "reason") ?? fieldError(fetcher.data, "note")}
      />
      <div className="form-actions">
        <button className="button" type="submit" name="intent" value="approve" disabled={busy}>
          {text.approve}
        </button>
        <button className="button button-secondary" type="submit" name="intent" value="reject" disabled={busy}>
          {text.reject}
        </button>
      </div>
    </fetcher.Form>
  );
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
                    <Decision refund={refund} />
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
