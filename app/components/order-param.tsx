import { Link } from "react-router";
import { useMessages } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";

const orderIdFormat = /^ord_[0-9a-f-]{36}$/;

/** The `?order=<id>` of a payment screen's URL, or null when it is missing or malformed. */
export function orderParam(url: string | URL): string | null {
  const id = new URL(url).searchParams.get("order");
  return id !== null && orderIdFormat.test(id) ? id : null;
}

export function MissingOrder() {
  const text = useMessages(layoutMessages);
  return (
    <p role="alert">
      {text.missingOrder} <Link to="/order">{text.yourOrders}</Link>.
    </p>
  );
}
