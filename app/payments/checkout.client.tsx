/*
 * The checkout for someone signed in: the order, the ways to pay it, paying from the wallet.
 * A chunk fetched on first use (app/routes/pay.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { Link, redirect, useFetcher } from "react-router";
import type { OrderDetail } from "#contract/orders";
import { payOrder } from "../api/orders";
import { DateTime } from "../components/money";
import { OrderSummary } from "../components/order-summary";
import { formText, runAction, type ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { useFormInstance } from "../forms/use-form-instance";
import { formatMoney } from "../i18n/format";
import { useLayoutMessages } from "../i18n/layout-messages";
import { useLanguage, useMessages } from "../i18n/messages";
import { paymentMessages } from "../messages/payment";
import { useSession } from "../session/session-state";

async function payFromWallet(form: FormData): Promise<ActionResult | Response> {
  const id = formText(form, "orderId");
  const result = await runAction("pay", (api) => payOrder(api, id, { method: "wallet" }, formText(form, "idempotencyKey")), {
    movesMoney: true,
  });
  return result.ok ? redirect(`/pay_success?order=${encodeURIComponent(id)}`) : result;
}

/** The page's action: pay the order from the wallet. */
export function actOnPayForm(form: FormData): Promise<ActionResult | Response> {
  return dispatchIntent(form, { pay: payFromWallet });
}

function WalletPayment({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  const language = useLanguage();
  const { user } = useSession();
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data, { resetOnSuccess: false });
  if (order.kind === "recharge") {
    return (
      <div className="method method-unavailable">
        <h3>{text.wallet}</h3>
        <p>{text.walletNotForRecharge}</p>
      </div>
    );
  }
  return (
    <fetcher.Form method="post" className="method" ref={formRef}>
      <h3>{text.wallet}</h3>
      {user ? <p>{text.walletHint(formatMoney(user.balances.available, language))}</p> : null}
      <FormAlert result={fetcher.data} />
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="orderId" value={order.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.paying}>
        {text.payNow}
      </SubmitButton>
    </fetcher.Form>
  );
}

/** An order ready to pay, by wallet or by WeChat Pay; or why it cannot be paid any more. */
export function Checkout({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  const layout = useLayoutMessages();
  if (order.status !== "pending") {
    return (
      <>
        <OrderSummary order={order} />
        <p role="alert">{text.notPayable}</p>
        <p>
          <Link to={`/pay_success?order=${order.id}`}>{text.resultTitle}</Link> · <Link to={`/order?id=${order.id}`}>{text.seeOrder}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <OrderSummary order={order} />
      <section aria-labelledby="method-title">
        <h2 id="method-title">{text.method}</h2>
        <div className="methods">
          <WalletPayment order={order} />
          <div className="method">
            <h3>{text.wechat}</h3>
            <p>{text.wechatHint}</p>
            <Link className="button button-secondary" to={`/wechat_pay?order=${order.id}`}>
              {text.wechat}
            </Link>
          </div>
        </div>
      </section>
      <p className="hint">
        {text.payBy}
        {layout.colon}
        <DateTime iso={order.expiresAt} />
      </p>
    </>
  );
}
