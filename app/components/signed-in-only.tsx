import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import type { UserInfo } from "../api/user-info";
import { useStartup } from "../startup/startup-state";
import { Spinner } from "./spinner";

/**
 * A screen about the user's own money or work: a spinner until start-up knows who is
 * there (the page HTML is the same for everyone), then the screen or a way to sign in.
 */
export function SignedInOnly({ purpose, children }: { purpose: string; children: (user: UserInfo) => ReactNode }) {
  const { ready, session, user } = useStartup();
  const location = useLocation();
  if (!ready || session === "unknown") return <Spinner label="Checking your session…" />;
  if (user) return <>{children(user)}</>;
  const next = encodeURIComponent(location.pathname + location.search);
  return (
    <section className="signed-out" aria-labelledby="signed-out-title">
      <h2 id="signed-out-title">Sign in to continue</h2>
      <p>{purpose}</p>
      {session === "unreachable" ? (
        <p role="alert">Paydesk cannot reach its service right now, so signing in is not possible. Please try again in a moment.</p>
      ) : (
        <p>
          <Link className="button" to={`/login?next=${next}`}>
            Sign in or create an account
          </Link>
        </p>
      )}
    </section>
  );
}
