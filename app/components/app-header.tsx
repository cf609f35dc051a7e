import { Link, NavLink, useNavigate } from "react-router";
import { signOut } from "../startup/account-session";
import { useStartup } from "../startup/startup-state";
import { formatMoney } from "./money";

const navigation = [
  { to: "/", label: "Home" },
  { to: "/task", label: "Tasks" },
  { to: "/check", label: "Check" },
  { to: "/order", label: "Orders" },
  { to: "/recharge", label: "Recharge" },
  { to: "/transfer", label: "Transfer" },
  { to: "/support", label: "Support" },
];

function Account() {
  const { ready, user } = useStartup();
  const navigate = useNavigate();
  if (!ready) return <span className="account account-pending" aria-hidden="true" />;
  if (!user) {
    return (
      <Link className="account" to="/login">
        Sign in
      </Link>
    );
  }
  return (
    <span className="account">
      <span className="account-name">{user.displayName}</span>
      <span className="account-balance" aria-label={`Available balance ${formatMoney(user.balances.available)}`}>
        {formatMoney(user.balances.available)}
      </span>
      <button
        type="button"
        className="account-sign-out"
        onClick={() => {
          void signOut();
          void navigate("/");
        }}
      >
        Sign out
      </button>
    </span>
  );
}

export function AppHeader() {
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="app-header-bar">
        <Link className="brand" to="/">
          Paydesk
        </Link>
        <Account />
      </div>
      <nav aria-label="Main">
        <ul className="app-nav">
          {navigation.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === "/"}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
