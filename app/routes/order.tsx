import type { Route } from "./+types/order";
import { orderIdPattern, orderStatuses } from "#contract/value-lists";
import { getOrder, listOrders } from "../api/orders";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { orderPageMessages } from "../messages/order-page";
import type { OrdersView } from "../orders/orders-screen.client";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { signedInPart } from "../startup/on-first-use";

const ordersScreen = signedInPart("orders-screen", () => import("../orders/orders-screen.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = orderPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  const id = params.get("id");
  const screen = await loadPersonal<OrdersView>(async (api) => {
    if (id !== null) {
      // A malformed id is simply not one of this user's orders.
      const order = await getOrder(api, orderIdPattern.test(id) ? id : "ord_unknown");
      return { view: "detail", order };
    }
    const status = orderStatuses.find((known) => known === params.get("status"));
    const page = await listOrders(api, { limit: 20, status, cursor: params.get("cursor") || undefined });
    return { view: "list", page, status: status ?? "" };
  });
  // The orders arrive with their data, not after it (if they cannot, the render asks again).
  if (screen.state === "ready") await ordersScreen.prefetch();
  return screen;
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnOrderForm }, form] = await Promise.all([ordersScreen.load(), request.formData()]);
  return actOnOrderForm(form);
}

export function HydrateFallback() {
  const text = useMessages(orderPageMessages);
  return (
    <section aria-labelledby="order-title">
      <h1 id="order-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  const text = useMessages(orderPageMessages);
  return (
    <section aria-labelledby="order-title">
      <h1 id="order-title">{loaderData.state === "ready" && loaderData.data.view === "detail" ? text.detailTitle : text.title}</h1>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(screen) => <PartView part={ordersScreen}>{({ OrdersScreen }) => <OrdersScreen screen={screen} />}</PartView>}
      </PersonalView>
    </section>
  );
}
