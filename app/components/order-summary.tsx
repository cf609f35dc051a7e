import type { Order } from "#contract/orders";
import { useLanguage, useMessages } from "../i18n/messages";
import { orderMessages } from "../messages/orders";
import { paymentMessages } from "../messages/payment";
import { DateTime, Money } from "./money";

/** What an order is for and what it costs: the head of every payment screen. */
export function OrderSummary({ order }: { order: Order }) {
  const text = useMessages(paymentMessages);
  const title = useOrderTitle();
  return (
    <dl className="summary">
      <dt>{text.forWhat}</dt>
      <dd>{title(order)}</dd>
      <dt>{text.amount}</dt>
      <dd className="amount-large">
        <Money amount={order.amount} />
      </dd>
      {order.status === "pending" ? (
        <>
          <dt>{text.payBy}</dt>
          <dd>
            <DateTime iso={order.expiresAt} />
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * What an order is for. The origin's description is English (it is also what WeChat Pay
 * shows the payer), so other languages name the order by its kind.
 */
export function useOrderTitle(): (order: Pick<Order, "kind" | "description">) => string {
  const language = useLanguage();
  const orders = orderMessages[language];
  return (order) => (language === "en" && order.description ? order.description : orders.kind[order.kind]);
}
