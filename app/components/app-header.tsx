import { useEffect } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { formatMoney } from "../i18n/format";
import { useLanguage } from "../i18n/messages";
import { fill, useLayoutMessages } from "../i18n/layout-messages";
import { useSession } from "../session/session-state";
import { useStartup } from "../startup/startup-state";
import { SignOutButton } from "./sign-out-button";

const navigation = [
  { to: "/", key: "home" },
  // Only ever personal: offered to a signed-in person (SignedInItem).
  { to: "/wallet", key: "wallet", signedInOnly: true },
  { to: "/task", key: "task" },
  { to: "/check", key: "check" },
  { to: "/order", key: "order" },
  { to: "/recharge", key: "recharge" },
  { to: "/transfer", key: "transfer" },
  { to: "/support", key: "support" },
  { to: "/account", key: "account", signedInOnly: true },
] as const;

/**
 * A page only a signed-in person has. Before start-up knows who is there, the server's HTML
 * (the same for everyone) carries it marked `if-token`: CSS shows it at the first paint only
 * where the device holds a token.
 */
function SignedInItem({ to, label }: { to: string; label: string }) {
  const { ready } = useStartup();
  const { user } = useSession();
  if (ready && !user) return null;
  return (
    <li className={ready ? undefined : "if-token"}>
      <NavLink to={to}>{label}</NavLink>
    </li>
  );
}

function Account() {
  const { ready } = useStartup();
  const { user } = useSession();
  const language = useLanguage();
  const text = useLayoutMessages();
  if (!ready) return <span className="account account-pending" aria-hidden="true" />;
  if (!user) {
    return (
      <Link className="account" to="/login">
        {text.signIn}
      </Link>
    );
  }
  const balance = formatMoney(user.balances.available, language, user.currency);
  return (
    <span className="account">
      <Link className="account-name" to="/account" aria-label={fill(text.yourAccount, { name: user.displayName })}>
        {user.displayName}
      </Link>
      {/* Announced when it changes: a payment or transfer updates it without a reload. */}
      <span
        className="account-balance"
        role="status"
        aria-label={fill(text.availableBalance, { amount: balance })}
        data-testid="header-balance"
      >
        {balance}
      </span>
      <SignOutButton />
    </span>
  );
}

export function AppHeader() {
  const text = useLayoutMessages();
  const location = useLocation();
  // On a phone the navigation scrolls sideways: keep the current page's item in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger: after each navigation another item is current in the DOM.
  useEffect(() => {
    // Sideways only: scrollIntoView could also scroll the page away from where it was restored.
    const list = document.querySelector<HTMLElement>(".app-nav");
    const current = list?.querySelector<HTMLElement>('a[aria-current="page"]');
    if (!list || !current) return;
    const { left, right } = current.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (left < box.left || right > box.right) list.scrollLeft += left - box.left - 16;
  }, [location.pathname]);
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        {text.skipToContent}
      </a>
      <div className="app-header-bar">
        <Link className="brand" to="/">
          Paydesk
        </Link>
        <Account />
      </div>
      <nav aria-label={text.mainNavigation}>
        <ul className="app-nav">
          {navigation.map((item) =>
            "signedInOnly" in item ? (
              <SignedInItem key={item.to} to={item.to} label={text.nav[item.key]} />
            ) : (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === "/"}>
                  {text.nav[item.key]}
                </NavLink>
              </li>
            ),
          )}
        </ul>
      </nav>
    </header>
  );
}
