import { Link, redirect, useFetcher } from "react-router";
import type { Route } from "./+types/pay";
import type { OrderDetail } from "#contract/orders";
import { payOrder } from "../api/orders";
import { DateTime } from "../components/money";
import { MissingOrder } from "../components/order-param";
import { OrderSummary } from "../components/order-summary";
import { formText, runAction, type ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { useFormInstance } from "../forms/use-form-instance";
import { formatMoney } from "../i18n/format";
import { metaLanguage, useLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { useLayoutMessages } from "../i18n/layout-messages";
import { paymentMessages } from "../messages/payment";
import { loadOrderNamedIn } from "../personal/load-order";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { useSession } from "../session/session-state";

export function meta({ matches }: Route.MetaArgs) {
  const text = paymentMessages[metaLanguage(matches)];
  return pageMeta(`${text.payTitle} · Paydesk`, text.payDescription);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadOrderNamedIn(request.url);
}
clientLoader.hydrate = true as const;

async function payFromWallet(form: FormData): Promise<ActionResult | Response> {
  const id = formText(form, "orderId");
  const result = await runAction("pay", (api) => payOrder(api, id, { method: "wallet" }, formText(form, "idempotencyKey")), {
    movesMoney: true,
  });
  return result.ok ? redirect(`/pay_success?order=${encodeURIComponent(id)}`) : result;
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult | Response> {
  return dispatchIntent(await request.formData(), { pay: payFromWallet });
}

export function HydrateFallback() {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="pay-title">
      <h1 id="pay-title">{text.payTitle}</h1>
      <PersonalFallback purpose={text.payPurpose} />
    </section>
  );
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

function Checkout({ order }: { order: OrderDetail }) {
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

export default function Pay({ loaderData }: Route.ComponentProps) {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="pay-title">
      <h1 id="pay-title">{text.payTitle}</h1>
      <PersonalView result={loaderData} purpose={text.payPurpose}>
        {(order) => (order ? <Checkout order={order} /> : <MissingOrder />)}
      </PersonalView>
    </section>
  );
}
