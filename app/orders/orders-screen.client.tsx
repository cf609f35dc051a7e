/*
 * The orders for someone signed in: the list, one order, and cancelling it. A chunk fetched
 * on first use (app/routes/order.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { Form, Link, useFetcher, useSearchParams } from "react-router";
import type { Order, OrderDetail } from "#contract/orders";
import { orderStatuses } from "#contract/value-lists";
import { cancelOrder, type OrderPage } from "../api/orders";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime, Money } from "../components/money";
import { useOrderTitle } from "../components/order-summary";
import { WechatPaidOut } from "../components/wechat-paid-out";
import { formText, runAction, type ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { orderMessages } from "../messages/orders";
import { OrderHistory } from "./order-history";

/** What the address asks for: a page of orders (with the status it is filtered by), or one order. */
export type OrdersView = { view: "list"; page: OrderPage; status: string } | { view: "detail"; order: OrderDetail };

/** The page's action: cancel an order not paid yet. */
export function actOnOrderForm(form: FormData): Promise<ActionResult> {
  return dispatchIntent(form, {
    cancel: (sent) => runAction("cancel", (api) => cancelOrder(api, formText(sent, "orderId"), formText(sent, "idempotencyKey"))),
  });
}

function StatusBadge({ order }: { order: Order }) {
  const text = useMessages(orderMessages);
  return (
    <span className={`badge badge-${order.status}`}>
      {text.status[order.status]}
      {order.closeReason ? text.aside(text.closeReason[order.closeReason]) : null}
    </span>
  );
}

function OrderList({ page, status }: { page: OrderPage; status: string }) {
  const text = useMessages(orderMessages);
  const title = useOrderTitle();
  const [params] = useSearchParams();
  return (
    <>
      <Form method="get" className="filter-bar">
        <label htmlFor="order-status">{text.filter}</label>
        <select id="order-status" name="status" defaultValue={status}>
          <option value="">{text.filterAll}</option>
          {orderStatuses.map((value) => (
            <option key={value} value={value}>
              {text.status[value]}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-secondary">
          {text.apply}
        </button>
      </Form>
      {page.orders.length === 0 ? (
        <p className="empty">{text.empty}</p>
      ) : (
        <ul className="item-list" aria-label={text.list}>
          {page.orders.map((order) => (
            <li key={order.id} className="item">
              <Link to={`/order?id=${order.id}`} className="item-main">
                <span className="item-title">{title(order)}</span>
                <span className="item-meta">
                  {text.kind[order.kind]} · <DateTime iso={order.createdAt} />
                </span>
              </Link>
              <span className="item-side">
                <Money amount={order.amount} />
                <StatusBadge order={order} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="pager">
        {params.get("cursor") ? <Link to={status ? `/order?status=${status}` : "/order"}>{text.newest}</Link> : null}
        {page.nextCursor ? (
          <Link to={`/order?${new URLSearchParams({ ...(status ? { status } : {}), cursor: page.nextCursor })}`}>{text.older}</Link>
        ) : null}
      </p>
    </>
  );
}

function CancelOrder({ order }: { order: OrderDetail }) {
  const text = useMessages(orderMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data, { resetOnSuccess: false });
  useAnnounceSuccess(fetcher.data, text.cancelled);
  return (
    <fetcher.Form method="post" ref={formRef}>
      <FormAlert result={fetcher.data} />
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="orderId" value={order.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.cancelling} className="button button-secondary">
        {text.cancel}
      </SubmitButton>
    </fetcher.Form>
  );
}

function OrderDetailView({ order }: { order: OrderDetail }) {
  const text = useMessages(orderMessages);
  const title = useOrderTitle();
  return (
    <article className="card" aria-labelledby="order-detail-title">
      <p>
        <Link to="/order">← {text.back}</Link>
      </p>
      <h2 id="order-detail-title">{title(order)}</h2>
      <dl className="summary">
        <dt>{text.amount}</dt>
        <dd className="amount-large">
          <Money amount={order.amount} />
        </dd>
        <dt>{text.kindLabel}</dt>
        <dd>{text.kind[order.kind]}</dd>
        <dt>{text.statusLabel}</dt>
        <dd>
          <StatusBadge order={order} />
        </dd>
        <dt>{text.created}</dt>
        <dd>
          <DateTime iso={order.createdAt} />
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
      {order.status === "pending" ? (
        <div className="form-actions">
          <Link className="button" to={`/pay?order=${order.id}`}>
            {text.pay}
          </Link>
          <CancelOrder order={order} />
        </div>
      ) : null}
      <h3>{text.history}</h3>
      <OrderHistory history={order.history} className="timeline" />
      <h3>{text.payments}</h3>
      {order.payments.length === 0 ? (
        <p>{text.noPayments}</p>
      ) : (
        <ul className="item-list">
          {order.payments.map((payment) => (
            <li key={payment.id} className="item">
              <span className="item-main">
                <span className="item-title">{text.method[payment.method]}</span>
                <span className="item-meta">
                  <DateTime iso={payment.createdAt} />
                </span>
              </span>
              <span className="item-side">
                <Money amount={payment.amount} /> <span className="badge">{text.paymentStatus[payment.status]}</span>
                <Link to={`/wallet/receipts/payment/${payment.id}`} aria-label={text.paymentReceipt(text.method[payment.method])}>
                  {text.receipt}
                </Link>
                {payment.refund ? (
                  <span className="item-meta">
                    {text.refund[payment.refund.status]} <Money amount={payment.refund.amount} />{" "}
                    <Link to={`/wallet/receipts/refund/${payment.refund.id}`} aria-label={text.refundReceipt(text.refundTo.wechat)}>
                      {text.receipt}
                    </Link>
                    {payment.refund.wechatPaidOut !== null ? (
                      <>
                        {" "}
                        <WechatPaidOut amount={payment.refund.amount} paidOut={payment.refund.wechatPaidOut} />
                      </>
                    ) : null}
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {order.refunds.length > 0 ? (
        <>
          <h3>{text.refunds}</h3>
          <ul className="item-list" data-testid="order-refunds">
            {order.refunds.map((refund) => (
              <li key={refund.id} className="item">
                <span className="item-main">
                  <span className="item-title">{text.refundTo[refund.method]}</span>
                  <span className="item-meta">
                    <DateTime iso={refund.createdAt} />
                  </span>
                  {refund.wechatPaidOut !== null ? (
                    <span className="item-meta">
                      <WechatPaidOut amount={refund.amount} paidOut={refund.wechatPaidOut} />
                    </span>
                  ) : null}
                </span>
                <span className="item-side">
                  <Money amount={refund.amount} /> <span className="badge">{text.refundStatus[refund.status]}</span>
                  <Link to={`/wallet/receipts/refund/${refund.id}`} aria-label={text.refundReceipt(text.refundTo[refund.method])}>
                    {text.receipt}
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </article>
  );
}

export function OrdersScreen({ screen }: { screen: OrdersView }) {
  return screen.view === "detail" ? <OrderDetailView order={screen.order} /> : <OrderList page={screen.page} status={screen.status} />;
}
