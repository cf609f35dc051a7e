import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Recharge · Paydesk" }];
}

export default function Screen() {
  return (
    <section aria-labelledby="recharge-title">
      <h1 id="recharge-title">Recharge</h1>
      <SignedInOnly purpose="Sign in to redeem a prepaid code or top up with WeChat Pay.">
        {(user) => (
          <p className="screen-intro">Add money to the wallet of {user.displayName}: redeem a prepaid code or top up online.</p>
        )}
      </SignedInOnly>
    </section>
  );
}
