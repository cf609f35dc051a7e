/**
 * Where an order's money is, beyond the order's own status: a WeChat Pay payment that landed
 * after the order closed or was paid goes back to the payer by itself, and the payment result
 * says so until its refund ends (docs/decisions/074-the-payment-result-says-where-the-money-is.md).
 */
import { Link } from "react-router";
import type { OrderDetail } from "#contract/orders";
import { WechatPaidOut } from "../components/wechat-paid-out";
import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { paymentOutcomeMessages } from "../messages/payment-outcome";

type Payment = OrderDetail["payments"][number];
type ReturnedPayment = Payment & { refund: NonNullable<Payment["refund"]> };

function returnedPayments(order: OrderDetail): ReturnedPayment[] {
  return order.payments.filter((payment): payment is ReturnedPayment => payment.status === "refunded" && payment.refund !== undefined);
}

/**
 * Whether the result may still change by itself: the order waits for its payment, a payment is
 * not settled yet (one landing as its order closed), or an automatic refund is on its way.
 */
export function outcomeUnsettled(order: OrderDetail): boolean {
  return (
    order.status === "pending" || order.payments.some((payment) => payment.status === "pending" || payment.refund?.status === "pending")
  );
}

/**
 * What a closed order's result adds when no payment of it went back: nothing was paid, or a
 * WeChat Pay payment is still open (its close not confirmed yet) and may land, then go back.
 */
export function closedOrderNote(order: OrderDetail): "nothingPaid" | "mayStillLand" | null {
  if (returnedPayments(order).length > 0) return null;
  return order.payments.some((payment) => payment.method === "wechat" && payment.status === "pending") ? "mayStillLand" : "nothingPaid";
}

/** Each WeChat Pay payment that goes back by itself: why, and how far its refund has come. */
export function ReturnedPayments({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentOutcomeMessages);
  const language = useLanguage();
  const returned = returnedPayments(order);
  if (returned.length === 0) return null;
  const why = order.status === "paid" ? text.lateAfterPaid : text.lateAfterClosed;
  return (
    <>
      {returned.map((payment) => (
        <div key={payment.id} className="notice notice-warning" data-testid="returned-payment">
          <p>{why(formatMoney(payment.amount, language))}</p>
          <p>
            {text.refund[payment.refund.status]}
            {payment.refund.wechatPaidOut !== null ? (
              <>
                {" "}
                <WechatPaidOut amount={payment.refund.amount} paidOut={payment.refund.wechatPaidOut} />
              </>
            ) : null}{" "}
            <Link to={`/wallet/receipts/refund/${payment.refund.id}`}>{text.refundReceipt}</Link>
          </p>
        </div>
      ))}
    </>
  );
}

/** A closed order: why it closed, and what became of any money paid for it. */
export function ClosedOutcome({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentOutcomeMessages);
  const note = closedOrderNote(order);
  return (
    <>
      <div className="notice notice-error">
        <h2>{order.closeReason ? text[order.closeReason] : text.closed}</h2>
        {note ? <p>{text[note]}</p> : null}
      </div>
      <ReturnedPayments order={order} />
    </>
  );
}
