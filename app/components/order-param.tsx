import { Link } from "react-router";
import { orderIdPattern } from "#contract/value-lists";
import { useLayoutMessages } from "../i18n/layout-messages";

/** The `?order=<id>` of a payment screen's URL, or null when it is missing or malformed. */
export function orderParam(url: string | URL): string | null {
  const id = new URL(url).searchParams.get("order");
  return id !== null && orderIdPattern.test(id) ? id : null;
}

export function MissingOrder() {
  const text = useLayoutMessages();
  return (
    <p role="alert">
      {text.missingOrder} <Link to="/order">{text.yourOrders}</Link>
      {text.fullStop}
    </p>
  );
}
