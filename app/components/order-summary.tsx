import type { Order } from "../api/orders";
import { useMessages } from "../i18n/messages";
import { orderMessages } from "../messages/orders";
import { paymentMessages } from "../messages/payment";
import { DateTime, Money } from "./money";

/** What an order is for and what it costs: the head of every payment screen. */
export function OrderSummary({ order }: { order: Order }) {
  const text = useMessages(paymentMessages);
  const orders = useMessages(orderMessages);
  return (
    <dl className="summary">
      <dt>{text.forWhat}</dt>
      <dd>{order.description || orders.kind[order.kind]}</dd>
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
