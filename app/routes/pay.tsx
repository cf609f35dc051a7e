import { MissingOrder, useOrderParam } from "../components/order-param";
import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Checkout · Paydesk" }];
}

export default function Screen() {
  const orderId = useOrderParam();
  return (
    <section aria-labelledby="pay-title">
      <h1 id="pay-title">Checkout</h1>
      <SignedInOnly purpose="Sign in to pay this order.">
        {() => (orderId ? <p className="screen-intro">Order <code>{orderId}</code></p> : <MissingOrder />)}
      </SignedInOnly>
    </section>
  );
}
