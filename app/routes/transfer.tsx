import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Send money · Paydesk" }];
}

export default function Screen() {
  return (
    <section aria-labelledby="transfer-title">
      <h1 id="transfer-title">Send money</h1>
      <SignedInOnly purpose="Sign in to send money to another Paydesk user.">
        {(user) => (
          <p className="screen-intro">Send money by handle. Available to send: {(user.balances.available / 100).toFixed(2)} CNY.</p>
        )}
      </SignedInOnly>
    </section>
  );
}
