import type { ReactNode } from "react";
import { Link, useLocation, useRevalidator } from "react-router";
import { useLayoutMessages } from "../i18n/layout-messages";
import { useSession } from "../session/session-state";
import { useStartup } from "../startup/startup-state";
import type { Personal } from "./load-personal";
import { Spinner } from "../components/spinner";

function SignedOutPrompt({ purpose }: { purpose: string }) {
  const { session } = useSession();
  const text = useLayoutMessages();
  const location = useLocation();
  const next = encodeURIComponent(location.pathname + location.search);
  return (
    <section className="signed-out" aria-labelledby="signed-out-title">
      <h2 id="signed-out-title">{text.signInToContinue}</h2>
      <p>{purpose}</p>
      {session === "unreachable" ? (
        <p role="alert">{text.cannotSignInNow}</p>
      ) : (
        <p>
          <Link className="button" to={`/login?next=${next}`}>
            {text.signInOrCreate}
          </Link>
        </p>
      )}
    </section>
  );
}

function LoadFailed({ message, needsReload = false }: { message: string; needsReload?: boolean }) {
  const text = useLayoutMessages();
  const revalidator = useRevalidator();
  return (
    <div className="notice notice-error" role="alert">
      <p>
        {text.loadFailed} {needsReload ? text.chunkBody : message}
      </p>
      {needsReload ? (
        <button type="button" className="button button-secondary" onClick={() => window.location.reload()}>
          {text.reload}
        </button>
      ) : (
        <button type="button" className="button button-secondary" onClick={() => void revalidator.revalidate()}>
          {text.tryAgain}
        </button>
      )}
    </div>
  );
}

/** The signed-out, failed and ready states of a personal screen, in one place. */
export function PersonalView<T>({ result, purpose, children }: { result: Personal<T>; purpose: string; children: (data: T) => ReactNode }) {
  if (result.state === "signed-out") return <SignedOutPrompt purpose={purpose} />;
  if (result.state === "failed") return <LoadFailed message={result.message} needsReload={result.needsReload} />;
  return <>{children(result.data)}</>;
}

/**
 * Before start-up has said who is there: the server's HTML, the same for everyone, holds
 * both the loading state and what a signed-out visitor sees, and CSS shows one by the
 * head's token mark (app/startup/token-mark.server.ts): a visitor without a token sees the
 * signed-out content at the first paint, not after hydration and the session call.
 */
export function UntilSessionKnown({ signedOut, label }: { signedOut: ReactNode; label?: string }) {
  return (
    <>
      <div className="if-token">
        <Spinner label={label} />
      </div>
      <div className="if-no-token">{signedOut}</div>
    </>
  );
}

/** A personal screen's fallback before hydration: its loading state, or the signed-out prompt. */
export function PersonalFallback({ purpose }: { purpose: string }) {
  return <UntilSessionKnown signedOut={<SignedOutPrompt purpose={purpose} />} />;
}

/** A screen that needs only to know who is there (its data comes with its forms). */
export function RequireUser({ purpose, children }: { purpose: string; children: ReactNode }) {
  const { ready } = useStartup();
  const { session, user } = useSession();
  const text = useLayoutMessages();
  if (!ready) return <UntilSessionKnown label={text.checkingSession} signedOut={<SignedOutPrompt purpose={purpose} />} />;
  if (session === "unknown") return <Spinner label={text.checkingSession} />;
  if (!user) return <SignedOutPrompt purpose={purpose} />;
  return <>{children}</>;
}
