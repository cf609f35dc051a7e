import { Link } from "react-router";
import { useLayoutMessages } from "../i18n/layout-messages";
import { useSession } from "../session/session-state";

/** On every page of a locked account: why nothing moves, and the way to support (docs/decisions/013-account-locks.md). */
export function LockedAccountNotice() {
  const { user } = useSession();
  const text = useLayoutMessages();
  if (!user?.locked) return null;
  return (
    <section className="notice notice-warning" aria-labelledby="locked-title" data-testid="locked-notice">
      <h2 id="locked-title">{text.lockedTitle}</h2>
      <p>{text.lockedBody}</p>
      <p>
        <Link to="/support">{text.lockedContact}</Link>
      </p>
    </section>
  );
}
