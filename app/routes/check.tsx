import "../styles/check.css";
import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Check submissions · Paydesk" }];
}

export default function Screen() {
  return (
    <section aria-labelledby="check-title">
      <h1 id="check-title">Check submissions</h1>
      <SignedInOnly purpose="Sign in to review the work submitted for your tasks.">
        {(user) => (
          <p className="screen-intro">
            Submissions to your tasks wait here for {user.displayName} to approve or reject.
          </p>
        )}
      </SignedInOnly>
    </section>
  );
}
