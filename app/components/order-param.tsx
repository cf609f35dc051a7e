import { Link, useSearchParams } from "react-router";

const orderIdFormat = /^[A-Za-z0-9_-]{1,64}$/;

/** The `?order=<id>` of the payment screens, or null when it is missing or malformed. */
export function useOrderParam(): string | null {
  const [params] = useSearchParams();
  const id = params.get("order");
  return id !== null && orderIdFormat.test(id) ? id : null;
}

export function MissingOrder() {
  return (
    <p role="alert">
      This link does not name an order. Open the order from <Link to="/order">your orders</Link>.
    </p>
  );
}
