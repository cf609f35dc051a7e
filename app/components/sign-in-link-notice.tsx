import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { fill, useLayoutMessages } from "../i18n/layout-messages";
import { dismissPendingLink, switchToPendingLink } from "../session/account-session";
import { useSession } from "../session/session-state";
import { focusPageHeading } from "./announcer";
import { SignOutButton } from "./sign-out-button";

/**
 * What a sign-in link did or would do (a defence against login CSRF): a link for another
 * account waits for the person's choice, and a visit signed in by a link says as whom.
 */
export function SignInLinkNotice() {
  const { pendingSignInLink, signedInByLink, user } = useSession();
  const text = useLayoutMessages();
  const revalidator = useRevalidator();
  const heading = useRef<HTMLHeadingElement>(null);
  const answered = useRef(false);
  // The question takes focus; once answered, the buttons are gone and it goes to the page.
  useEffect(() => {
    if (pendingSignInLink) heading.current?.focus();
    else if (answered.current) focusPageHeading();
  }, [pendingSignInLink]);
  if (!user) return null;
  const name = `${user.displayName} (@${user.handle})`;
  if (pendingSignInLink) {
    return (
      <section className="notice notice-warning" role="alertdialog" aria-labelledby="switch-title" aria-describedby="switch-body">
        <h2 id="switch-title" ref={heading} tabIndex={-1}>
          {text.switchTitle}
        </h2>
        <p id="switch-body">{fill(text.switchBody, { name })}</p>
        <div className="form-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              answered.current = true;
              dismissPendingLink();
            }}
          >
            {fill(text.switchNo, { name })}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              answered.current = true;
              void switchToPendingLink(pendingSignInLink).then(() => revalidator.revalidate());
            }}
          >
            {text.switchYes}
          </button>
        </div>
      </section>
    );
  }
  if (!signedInByLink) return null;
  return (
    <p className="notice" role="status">
      {fill(text.linkSignedIn, { name })} <SignOutButton />
    </p>
  );
}
