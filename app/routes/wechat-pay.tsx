import { MissingOrder, useOrderParam } from "../components/order-param";
import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "WeChat Pay · Paydesk" }];
}

export default function Screen() {
  const orderId = useOrderParam();
  return (
    <section aria-labelledby="wechat_pay-title">
      <h1 id="wechat_pay-title">WeChat Pay</h1>
      <SignedInOnly purpose="Sign in to pay this order with WeChat Pay.">
        {() => (orderId ? <p className="screen-intro">Order <code>{orderId}</code></p> : <MissingOrder />)}
      </SignedInOnly>
    </section>
  );
}
