import { Link } from "react-router";
import type { Route } from "./+types/wechat-pay";
import type { OrderDetail } from "../api/orders";
import { MissingOrder, orderParam } from "../components/order-param";
import { OrderSummary } from "../components/order-summary";
import { Spinner } from "../components/spinner";
import { metaLanguage, useMessages } from "../i18n/messages";
import { paymentMessages } from "../messages/payment";
import { loadPersonal } from "../personal/load-personal";
import { PersonalView } from "../personal/personal-view";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: `${paymentMessages[metaLanguage(matches)].wechatTitle} · Paydesk` }];
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const id = orderParam(request.url);
  return loadPersonal(async (api) => (id ? await api.get<OrderDetail>(`/api/orders/${id}`) : null));
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="wechat-title">
      <h1 id="wechat-title">{text.wechatTitle}</h1>
      <Spinner />
    </section>
  );
}

// Until the WeChat Pay client is wired (issue #5), the page says plainly that it is not
// available here and offers the other way to pay.
function NotConfigured({ order }: { order: OrderDetail }) {
  const text = useMessages(paymentMessages);
  return (
    <>
      <OrderSummary order={order} />
      <p className="notice notice-warning" role="alert">
        {text.wechatNotConfigured}
      </p>
      <p className="links">
        <Link to={`/pay?order=${order.id}`}>{text.wechatOther}</Link>
        <Link to={`/order?id=${order.id}`}>{text.seeOrder}</Link>
      </p>
    </>
  );
}

export default function WechatPay({ loaderData }: Route.ComponentProps) {
  const text = useMessages(paymentMessages);
  return (
    <section className="narrow" aria-labelledby="wechat-title">
      <h1 id="wechat-title">{text.wechatTitle}</h1>
      <PersonalView result={loaderData} purpose={text.wechatPurpose}>
        {(order) => (order ? <NotConfigured order={order} /> : <MissingOrder />)}
      </PersonalView>
    </section>
  );
}
