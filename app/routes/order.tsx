import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Orders · Paydesk" }];
}

export default function Screen() {
  return (
    <section aria-labelledby="order-title">
      <h1 id="order-title">Orders</h1>
      <SignedInOnly purpose="Sign in to see your orders.">
        {(user) => (
          <p className="screen-intro">Your orders, newest first, {user.displayName}.</p>
        )}
      </SignedInOnly>
    </section>
  );
}
