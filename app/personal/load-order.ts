import { getOrder } from "../api/orders";
import { orderParam } from "../components/order-param";
import { loadPersonal } from "./load-personal";

/** The order a payment screen's `?order=` names, as its owner sees it (null: no order named). */
export function loadOrderNamedIn(url: string) {
  const id = orderParam(url);
  return loadPersonal(async (api) => (id ? await getOrder(api, id) : null));
}
