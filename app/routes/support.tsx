import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Support · Paydesk" }];
}

export default function Screen() {
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">Support</h1>
      <SignedInOnly purpose="Sign in to open a support ticket and follow its replies.">
        {(user) => (
          <p className="screen-intro">Your support tickets, {user.displayName}.</p>
        )}
      </SignedInOnly>
    </section>
  );
}
