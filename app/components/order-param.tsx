import { Link } from "react-router";
import { orderIdSchema } from "../contract.client";
import { useLayoutMessages } from "../i18n/layout-messages";

/** The `?order=<id>` of a payment screen's URL, or null when it is missing or malformed. */
export function orderParam(url: string | URL): string | null {
  const id = new URL(url).searchParams.get("order");
  return orderIdSchema.safeParse(id).success ? id : null;
}

export function MissingOrder() {
  const text = useLayoutMessages();
  return (
    <p role="alert">
      {text.missingOrder} <Link to="/order">{text.yourOrders}</Link>.
    </p>
  );
}
