import { useEffect, useRef } from "react";
import { Link, useRevalidator } from "react-router";
import type { Route } from "./+types/pay-success";
import type { OrderDetail } from "#contract/orders";
import { MissingOrder } from "../components/order-param";
import { OrderSummary } from "../components/order-summary";
import { formatMoney } from "../i18n/format";
import { metaLanguage, useLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { paymentMessages } from "../messages/payment";
import { paymentOutcomeMessages } from "../messages/payment-outcome";
import { pollDelayMs } from "../payments/choose-flow";
import { ClosedOutcome, outcomeUnsettled, ReturnedPayments } from "../payments/payment-outcome";
import { loadOrderNamedIn } from "../personal/load-order";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { refreshUser } from "../session/account-session";

export function meta({ matches }: Route.MetaArgs) {
  const text = paymentMessages[metaLanguage(matches)];
  return pageMeta(`${text.resultTitle} · Paydesk`, text.resultDescription);
}

// The result comes from the origin, never from the URL that brought the user here.
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadOrderNamedIn(request.url);
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="result-title">
      <h1 id="result-title">{text.resultTitle}</h1>
      <PersonalFallback purpose={text.resultPurpose} />
    </section>
  );
}

/**
 * A paid or closed order's open payment or refund is checked for about ten minutes, then on
 * "Check now": one WeChat Pay reported in a way Paydesk does not book waits for an operator.
 */
const checksOnceDecided = 40;

/** While the result may still change, ask again: after 2 s, then less often, up to every 15 s. */
function useCheckingWhileUnsettled(unsettled: boolean, maxChecks = Number.POSITIVE_INFINITY) {
  const revalidator = useRevalidator();
  const attempts = useRef(0);
  useEffect(() => {
    if (!unsettled || attempts.current >= maxChecks) return;
    const delay = pollDelayMs(attempts.current);
    const timer = setTimeout(() => {
      attempts.current += 1;
      void revalidator.revalidate();
    }, delay);
    return () => clearTimeout(timer);
  });
}

function Result({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  const outcome = useMessages(paymentOutcomeMessages);
  const language = useLanguage();
  const revalidator = useRevalidator();
  const unsettled = outcomeUnsettled(order);
  useCheckingWhileUnsettled(unsettled, order.status === "pending" ? undefined : checksOnceDecided);
  useEffect(() => {
    if (order.status === "paid") void refreshUser();
  }, [order.status]);
  return (
    <>
      <div role="status" aria-live="polite">
        {order.status === "paid" ? (
          <>
            <div className="notice notice-success">
              <h2>{text.paid}</h2>
              <p>{order.kind === "recharge" ? text.paidRecharge(formatMoney(order.amount, language)) : text.paidTask}</p>
            </div>
            <ReturnedPayments order={order} />
          </>
        ) : order.status === "pending" ? (
          <div className="notice">
            <h2>{text.pending}</h2>
            <p>{text.pendingHint}</p>
            <p>{outcome.payAgainHint}</p>
          </div>
        ) : (
          <ClosedOutcome order={order} />
        )}
      </div>
      <OrderSummary order={order} />
      {unsettled ? (
        <p>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void revalidator.revalidate()}
            disabled={revalidator.state !== "idle"}
          >
            {text.checkAgain}
          </button>
        </p>
      ) : null}
      <p className="links">
        {order.status === "pending" ? <Link to={`/pay?order=${order.id}`}>{outcome.payAgain}</Link> : null}
        <Link to="/">{text.goWallet}</Link>
        {order.kind === "task_budget" ? <Link to="/task?tab=posted">{text.goTasks}</Link> : null}
        <Link to={`/order?id=${order.id}`}>{text.seeOrder}</Link>
      </p>
    </>
  );
}

export default function PaySuccess({ loaderData }: Route.ComponentProps) {
  const text = useMessages(paymentMessages);
  // A check that failed (the service unreachable for a moment) is tried again, with back-off.
  useCheckingWhileUnsettled(loaderData.state === "failed");
  return (
    <section className="narrow" aria-labelledby="result-title">
      <h1 id="result-title">{text.resultTitle}</h1>
      <PersonalView result={loaderData} purpose={text.resultPurpose}>
        {(order) => (order ? <Result order={order} /> : <MissingOrder />)}
      </PersonalView>
    </section>
  );
}
