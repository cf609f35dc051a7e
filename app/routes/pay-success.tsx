import { MissingOrder, useOrderParam } from "../components/order-param";
import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Payment result · Paydesk" }];
}

export default function Screen() {
  const orderId = useOrderParam();
  return (
    <section aria-labelledby="pay_success-title">
      <h1 id="pay_success-title">Payment result</h1>
      <SignedInOnly purpose="Sign in to see the result of your payment.">
        {() => (orderId ? <p className="screen-intro">Order <code>{orderId}</code></p> : <MissingOrder />)}
      </SignedInOnly>
    </section>
  );
}
