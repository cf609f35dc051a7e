import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/ops-order";
import type { RefundRequest } from "#contract/ops-refunds";
import {
  askWechatPay,
  decideSettlement,
  makeRefund,
  type OrderRefunds,
  returnRefundToWallet,
  settleParkedRefund,
  settleRefundPaidTwice,
  withdrawSettlement,
} from "../../api/ops";
import { useAnnounceSuccess } from "../../components/announcer";
import { DateTime, Money } from "../../components/money";
import { refundSchemas } from "../../contract-schemas";
import { checked, formText, runAction, type ActionResult } from "../../forms/action-result";
import { FormAlert, MoneyField, SubmitButton, TextAreaField } from "../../forms/fields";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { fieldError } from "../../forms/failure-fields";
import { useFormInstance } from "../../forms/use-form-instance";
import { formatMoney, parseYuan } from "../../i18n/format";
import { currentLanguage, useLanguage, useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { orderMessages } from "../../messages/orders";
import { OrderHistory } from "../../orders/order-history";
import { mayDo, useOperator } from "../../ops/ops-context";
import { getOrder } from "../../ops/ops-loaders";
import { OpsView } from "../../ops/ops-view";
import { WechatRefundLine } from "../../ops/wechat-refund-line";
import {
  parkedUnsettled,
  paidTwice,
  returnable,
  ReturnToWallet,
  SettlementDecision,
  settlementAsked,
  SettlePaidTwice,
  SettleParked,
} from "../../ops/wechat-refund-actions";
import { usePrefetchWhenIdle } from "../../startup/on-first-use";
import type { OpsWechatAsk, OrderStory } from "#contract/ops-orders";

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  return getOrder(params.id);
}

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<ActionResult> {
  const decide = (decision: "approve" | "reject", form: FormData) =>
    runAction(decision, (api) =>
      decideSettlement(api, formText(form, "subjectId"), decision, formText(form, "note"), formText(form, "idempotencyKey")),
    );
  return dispatchIntent(await request.formData(), {
    refund: (form) =>
      runAction("refund", async (api) => {
        const text = opsMessages[currentLanguage()];
        const body = await checked(
          (await refundSchemas.load()).refundBodySchema,
          { amount: parseYuan(formText(form, "amount")), reason: formText(form, "reason") },
          { amount: text.amountInvalid, reason: text.reasonMissing },
        );
        return makeRefund(api, params.id, body, formText(form, "idempotencyKey"));
      }),
    ask: () => runAction("ask", (api) => askWechatPay(api, params.id)),
    return: (form) =>
      runAction("return", async (api) => {
        const text = opsMessages[currentLanguage()];
        const body = await checked(
          (await refundSchemas.load()).refundReturnBodySchema,
          { reason: formText(form, "reason") },
          { reason: text.reasonMissing },
        );
        return returnRefundToWallet(api, formText(form, "outRefundNo"), body.reason, formText(form, "idempotencyKey"));
      }),
    settle: (form) =>
      runAction("settle", async (api) => {
        const text = opsMessages[currentLanguage()];
        const body = await checked(
          (await refundSchemas.load()).paidTwiceSettleBodySchema,
          { how: formText(form, "how"), reason: formText(form, "reason") },
          { how: text.chooseHow, reason: text.reasonMissing },
        );
        return settleRefundPaidTwice(api, formText(form, "outRefundNo"), body, formText(form, "idempotencyKey"));
      }),
    // A settlement another operator asked for past the threshold (docs/decisions/072-large-settlements-need-a-second-operator.md).
    approve: (form) => decide("approve", form),
    reject: (form) => decide("reject", form),
    withdraw: (form) =>
      runAction("withdraw", (api) => withdrawSettlement(api, formText(form, "subjectId"), formText(form, "idempotencyKey"))),
    settleParked: (form) =>
      runAction("settleParked", async (api) => {
        const text = opsMessages[currentLanguage()];
        const body = await checked(
          (await refundSchemas.load()).parkedRefundSettleBodySchema,
          { reason: formText(form, "reason") },
          { reason: text.reasonMissing },
        );
        return settleParkedRefund(api, formText(form, "outRefundNo"), body.reason, formText(form, "idempotencyKey"));
      }),
  });
}

/** Whether a payment of the order has money left to refund. */
const refundLeft = (refunds: OrderRefunds) => refunds.payments.some((payment) => payment.refundable > 0);

function RefundForm({ refunds }: { refunds: OrderRefunds }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const fetcher = useFetcher<ActionResult<RefundRequest>>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const made = fetcher.data?.ok ? (fetcher.data.data.status === "approved" ? text.refundMade : text.refundWaiting) : "";
  useAnnounceSuccess(fetcher.data, made);
  // An order has at most one payment that succeeded: the one refunded. Once nothing is left,
  // the form stays for its last answer, without fields.
  const open = refundLeft(refunds);
  if (!open && !made) return null;
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions" aria-labelledby="ops-refund-title">
      <h3 id="ops-refund-title">{text.refund}</h3>
      <p className="hint">{text.threshold(formatMoney(refunds.approvalThreshold, language))}</p>
      <FormAlert result={fetcher.data} fields={["amount", "reason"]} />
      {made ? (
        <p className="notice" role="status" data-testid="ops-refund-made">
          {made}
        </p>
      ) : null}
      {open ? (
        <>
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <MoneyField id="ops-refund-amount" name="amount" label={text.refundAmount} error={fieldError(fetcher.data, "amount")} />
          <TextAreaField
            id="ops-refund-reason"
            name="reason"
            label={text.refundReason}
            required
            rows={2}
            error={fieldError(fetcher.data, "reason")}
          />
          <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.refund}>
            {text.refund}
          </SubmitButton>
        </>
      ) : null}
    </fetcher.Form>
  );
}

/** "Ask WeChat Pay now": what the cron would ask, at once; the page reloads the story after it. */
function AskWechatPay() {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult<{ asked: OpsWechatAsk }>>();
  useAnnounceSuccess(fetcher.data, text.askedWechatPay);
  const asked = fetcher.data?.ok ? fetcher.data.data.asked : null;
  return (
    <fetcher.Form method="post" className="ops-actions" aria-labelledby="ops-ask-title">
      <h3 id="ops-ask-title">{text.askWechatPay}</h3>
      <p className="hint">{text.askWechatPayHint}</p>
      <FormAlert result={fetcher.data} fields={[]} />
      <input type="hidden" name="intent" value="ask" />
      <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.askWechatPay}>
        {text.askWechatPay}
      </SubmitButton>
      {asked ? (
        <ul className="item-list" data-testid="ops-asked">
          {asked.payments.map((payment) => (
            <li key={payment.outTradeNo} className="item">
              {payment.outTradeNo}: {text.askOutcome[payment.outcome] ?? payment.outcome}
              {payment.tradeState ? ` (${payment.tradeState})` : ""}
            </li>
          ))}
          {asked.refunds.map((refund) => (
            <li key={refund.outRefundNo} className="item">
              {refund.outRefundNo}: {text.wechatRefundState[refund.before]} → {text.wechatRefundState[refund.after]}
            </li>
          ))}
        </ul>
      ) : null}
    </fetcher.Form>
  );
}

/** An operator's refund; `returnedTo`: its WeChat Pay refund failed and went back to this person's wallet. */
function RefundLine({ refund, returnedTo }: { refund: RefundRequest; returnedTo: string | undefined }) {
  const text = useMessages(opsMessages);
  const wechatState = returnedTo ? text.returnedTo(returnedTo) : refund.wechat ? text.wechatRefundState[refund.wechat.status] : "";
  return (
    <li className="item">
      <span className="item-main">
        <span className="item-title">{refund.reason}</span>
        <span className="item-meta">
          <DateTime iso={refund.requestedAt} /> · {text.requestedBy(refund.requestedBy.displayName)}
          {refund.decidedBy ? ` · ${text.decidedBy(refund.decidedBy.displayName)}` : ""}
          {refund.wechat ? ` · ${refund.wechat.outRefundNo} · ${text.atWechatPay(wechatState)}` : ""}
        </span>
      </span>
      <span className="item-side">
        <Money amount={refund.amount} /> <span className="badge">{text.refundStatus[refund.status]}</span>
      </span>
    </li>
  );
}

function OrderView({ story, refunds }: { story: OrderStory; refunds: OrderRefunds }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const operator = useOperator();
  const orders = useMessages(orderMessages);
  const { order } = story;
  // Another finance operator refunds one's own order, and returns or settles its refunds
  // (docs/decisions/065-no-refund-of-ones-own-order.md).
  const ownOrder = order.person.handle === operator.handle;
  const mayMoveIt = mayDo(operator, "refund") && !ownOrder;
  return (
    <section aria-labelledby="ops-order-title">
      <h1 id="ops-order-title">
        {text.orderTitle} {order.id}
      </h1>
      <dl className="ops-facts">
        <dt>{text.person}</dt>
        <dd>
          <Link to={`/ops/people/${encodeURIComponent(order.person.id)}`}>
            {order.person.displayName} (@{order.person.handle})
          </Link>
        </dd>
        <dt>{orders.kindLabel}</dt>
        <dd>{orders.kind[order.kind]}</dd>
        {/* Kept as the origin worded it (in English): what the payer saw at WeChat Pay, to match a complaint against. */}
        <dt>{text.payerDescription}</dt>
        <dd>{order.description}</dd>
        <dt>{orders.statusLabel}</dt>
        <dd>
          {orders.status[order.status]} · <Money amount={order.amount} />
        </dd>
      </dl>
      <h2>{text.history}</h2>
      <OrderHistory history={story.history} />
      <h2>{text.payments}</h2>
      <ul className="item-list">
        {story.payments.map((payment) => {
          const left = refunds.payments.find((candidate) => candidate.id === payment.id);
          return (
            <li key={payment.id} className="item">
              <span className="item-main">
                <span className="item-title">
                  {orders.method[payment.method]}
                  {payment.flow ? ` · ${payment.flow}` : ""} · {orders.paymentStatus[payment.status]}
                </span>
                <span className="item-meta">
                  {payment.id}
                  {payment.outTradeNo ? ` · ${payment.outTradeNo}` : ""}
                  {payment.transactionId ? ` · ${payment.transactionId}` : ""}
                </span>
                {left ? (
                  <span className="item-meta" data-testid="ops-refundable">
                    {text.refundable(formatMoney(left.refundable, language), formatMoney(left.paid, language))}
                  </span>
                ) : null}
              </span>
              <span className="item-side">
                <Money amount={payment.amount} />
              </span>
            </li>
          );
        })}
      </ul>
      {story.notifications.length > 0 ? (
        <>
          <h2>{text.notifications}</h2>
          <ul className="item-list">
            {story.notifications.map((notification) => (
              <li key={notification.id} className="item">
                <span className="item-main">
                  <span className="item-title">{notification.eventType}</span>
                  <span className="item-meta">
                    <DateTime iso={notification.firstReceivedAt} /> · {notification.outcome} × {notification.deliveries}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{text.refundsTitle}</h2>
      {refunds.refunds.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list" data-testid="ops-order-refunds">
          {refunds.refunds.map((refund) => (
            <RefundLine
              key={refund.id}
              refund={refund}
              returnedTo={story.refunds.find((wechat) => wechat.outRefundNo === refund.wechat?.outRefundNo)?.returned?.to.displayName}
            />
          ))}
        </ul>
      )}
      {story.refunds.length > 0 ? (
        <>
          <h2>{text.wechatRefundsTitle}</h2>
          <ul className="item-list" data-testid="ops-order-wechat-refunds">
            {story.refunds.map((refund) => (
              <WechatRefundLine key={refund.outRefundNo} refund={refund}>
                {returnable(refund) && mayMoveIt ? <ReturnToWallet refund={refund} owner={order.person.displayName} /> : null}
                {paidTwice(refund) && mayMoveIt ? (
                  <SettlePaidTwice refund={refund} owner={order.person.displayName} threshold={refunds.approvalThreshold} />
                ) : null}
                {settlementAsked(refund) && mayMoveIt ? <SettlementDecision refund={refund} operatorHandle={operator.handle} /> : null}
                {parkedUnsettled(refund) && mayMoveIt ? <SettleParked refund={refund} owner={order.person.displayName} /> : null}
              </WechatRefundLine>
            ))}
          </ul>
        </>
      ) : null}
      {story.payments.some((payment) => payment.method === "wechat") && mayDo(operator, "askWechatPay") ? <AskWechatPay /> : null}
      {mayMoveIt ? <RefundForm refunds={refunds} /> : null}
      {mayDo(operator, "refund") &&
      ownOrder &&
      (refundLeft(refunds) || story.refunds.some((refund) => returnable(refund) || paidTwice(refund) || parkedUnsettled(refund))) ? (
        <p className="notice" data-testid="ops-own-order">
          {text.ownOrder}
        </p>
      ) : null}
    </section>
  );
}

export default function OpsOrder({ loaderData }: Route.ComponentProps) {
  usePrefetchWhenIdle(refundSchemas.part);
  return <OpsView result={loaderData}>{({ story, refunds }) => <OrderView story={story} refunds={refunds} />}</OpsView>;
}
