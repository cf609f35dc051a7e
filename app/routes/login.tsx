import { Link, useSearchParams } from "react-router";
import { Spinner } from "../components/spinner";
import { safeNextPath } from "../startup/safe-next";
import { useStartup } from "../startup/startup-state";

export function meta() {
  return [{ title: "Sign in · Paydesk" }];
}

export default function Login() {
  const { ready, user, session } = useStartup();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const registering = params.get("mode") === "register";
  const title = registering ? "Create your account" : "Sign in";
  return (
    <section className="narrow" aria-labelledby="login-title">
      <h1 id="login-title">{title}</h1>
      {!ready ? (
        <Spinner label="Checking your session…" />
      ) : user ? (
        <p>
          You are signed in as <strong>{user.displayName}</strong> (@{user.handle}). <Link to={next}>Continue</Link>
        </p>
      ) : (
        <>
          {session === "unreachable" ? (
            <p role="alert">Paydesk cannot reach its service right now, so signing in is not possible. Please try again in a moment.</p>
          ) : null}
          <form className="form" method="post" action="/api/user/login" aria-describedby="login-hint" onSubmit={(event) => event.preventDefault()}>
            <p id="login-hint" className="hint">
              A handle has 3 to 32 lower-case letters, digits or underscores; a password at least 10 characters.
            </p>
            <label htmlFor="login-handle">Handle</label>
            <input id="login-handle" name="handle" autoComplete="username" required minLength={3} maxLength={32} pattern="[a-z0-9_]{3,32}" />
            <label htmlFor="login-password">Password</label>
            <input
              id="login-password"
              name="password"
              type="password"
              autoComplete={registering ? "new-password" : "current-password"}
              required
              minLength={10}
            />
            <button className="button" type="submit" disabled>
              {title}
            </button>
          </form>
          <p>
            {registering ? (
              <Link to={`/login?next=${encodeURIComponent(next)}`}>I already have an account</Link>
            ) : (
              <Link to={`/login?mode=register&next=${encodeURIComponent(next)}`}>Create an account</Link>
            )}
          </p>
        </>
      )}
    </section>
  );
}
