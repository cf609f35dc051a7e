import { Link } from "react-router";
import { Money } from "../components/money";
import { Spinner } from "../components/spinner";
import { useStartup } from "../startup/startup-state";

export function meta() {
  return [{ title: "Paydesk · Wallet, payments and paid tasks" }];
}

function Welcome() {
  return (
    <section className="hero" aria-labelledby="home-title">
      <h1 id="home-title">Your wallet for orders, transfers and paid tasks</h1>
      <p>
        Top up with WeChat Pay or a prepaid code, pay orders, send money to friends, post tasks with a reward and earn
        by doing tasks for others.
      </p>
      <p className="actions">
        <Link className="button" to="/login">
          Sign in
        </Link>
        <Link className="button button-secondary" to="/login?mode=register">
          Create an account
        </Link>
      </p>
    </section>
  );
}

export default function Home() {
  const { ready, user } = useStartup();
  if (!ready) return <Spinner label="Checking your session…" />;
  if (!user) return <Welcome />;
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Hello, {user.displayName}</h1>
      <dl className="balances">
        <div>
          <dt>Available</dt>
          <dd>
            <Money amount={user.balances.available} currency={user.currency} />
          </dd>
        </div>
        <div>
          <dt>Held for your tasks</dt>
          <dd>
            <Money amount={user.balances.held} currency={user.currency} />
          </dd>
        </div>
      </dl>
      <nav aria-label="Quick actions">
        <ul className="quick-actions">
          <li>
            <Link to="/recharge">Recharge</Link>
          </li>
          <li>
            <Link to="/transfer">Transfer</Link>
          </li>
          <li>
            <Link to="/order">Orders</Link>
          </li>
          <li>
            <Link to="/task">Tasks</Link>
          </li>
        </ul>
      </nav>
    </section>
  );
}
