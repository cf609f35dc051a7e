import { Link } from "react-router";
import { useMessages } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";
import { useSession } from "../session/session-state";

/** On every page of a locked account: why nothing moves, and the way to support (docs/decisions/013-account-locks.md). */
export function LockedAccountNotice() {
  const { user } = useSession();
  const text = useMessages(layoutMessages);
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
