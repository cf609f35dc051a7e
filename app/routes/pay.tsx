import type { Route } from "./+types/pay";
import { MissingOrder } from "../components/order-param";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { payPageMessages } from "../messages/pay-page";
import { loadOrderNamedIn } from "../personal/load-order";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { signedInPart } from "../startup/on-first-use";

const checkout = signedInPart("checkout", () => import("../payments/checkout.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = payPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.payTitle} · Paydesk`, text.payDescription);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const order = await loadOrderNamedIn(request.url);
  // The checkout arrives with its order, not after it (if it cannot, the render asks again).
  if (order.state === "ready" && order.data) await checkout.prefetch();
  return order;
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnPayForm }, form] = await Promise.all([checkout.load(), request.formData()]);
  return actOnPayForm(form);
}

export function HydrateFallback() {
  const text = useMessages(payPageMessages);
  return (
    <section className="narrow" aria-labelledby="pay-title">
      <h1 id="pay-title">{text.payTitle}</h1>
      <PersonalFallback purpose={text.payPurpose} />
    </section>
  );
}

export default function Pay({ loaderData }: Route.ComponentProps) {
  const text = useMessages(payPageMessages);
  return (
    <section className="narrow" aria-labelledby="pay-title">
      <h1 id="pay-title">{text.payTitle}</h1>
      <PersonalView result={loaderData} purpose={text.payPurpose}>
        {(order) => (order ? <PartView part={checkout}>{({ Checkout }) => <Checkout order={order} />}</PartView> : <MissingOrder />)}
      </PersonalView>
    </section>
  );
}
