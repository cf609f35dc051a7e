import "../styles/task.css";
import { SignedInOnly } from "../components/signed-in-only";

export function meta() {
  return [{ title: "Tasks · Paydesk" }];
}

export default function Screen() {
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">Tasks</h1>
      <SignedInOnly purpose="Sign in to claim tasks, submit your work and post tasks of your own.">
        {(user) => (
          <p className="screen-intro">
            {user.displayName}, claim an open task of others, submit proof for your claims, or post a task with a reward.
          </p>
        )}
      </SignedInOnly>
    </section>
  );
}
