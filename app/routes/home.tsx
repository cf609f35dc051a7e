import { Link } from "react-router";
import type { Route } from "./+types/home";
import type { Claim } from "../api/tasks";
import type { WalletEntryPage } from "../api/wallet";
import { DateTime, Money } from "../components/money";
import { Spinner } from "../components/spinner";
import { metaLanguage, useMessages } from "../i18n/messages";
import { homeMessages } from "../messages/home";
import { loadPersonal } from "../personal/load-personal";
import { PersonalView } from "../personal/personal-view";
import { useStartup } from "../startup/startup-state";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: homeMessages[metaLanguage(matches)].title }];
}

export async function clientLoader() {
  return loadPersonal(async (api) => {
    const [entries, mine, toCheck] = await Promise.all([
      api.get<WalletEntryPage>("/api/wallet/entries?limit=5"),
      api.get<Claim[]>("/api/claims?view=mine"),
      api.get<Claim[]>("/api/claims?view=to_check"),
    ]);
    return { entries: entries.entries, toDo: mine.filter((claim) => claim.status === "claimed").length, toCheck: toCheck.length };
  });
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <Spinner />;
}

function Welcome() {
  const text = useMessages(homeMessages);
  return (
    <section className="hero" aria-labelledby="home-title">
      <h1 id="home-title">{text.heroTitle}</h1>
      <p>{text.heroLead}</p>
      <p className="actions">
        <Link className="button" to="/login">
          {text.signIn}
        </Link>
        <Link className="button button-secondary" to="/login?mode=register">
          {text.createAccount}
        </Link>
      </p>
    </section>
  );
}

type Overview = { entries: WalletEntryPage["entries"]; toDo: number; toCheck: number };

function Wallet({ overview }: { overview: Overview }) {
  const text = useMessages(homeMessages);
  const { user } = useStartup();
  if (!user) return <Spinner />;
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">{text.hello(user.displayName)}</h1>
      {/* From the session, which every money movement refreshes: the figures stay live. */}
      <dl className="balances">
        <div>
          <dt>{text.available}</dt>
          <dd data-testid="balance-available">
            <Money amount={user.balances.available} currency={user.currency} />
          </dd>
        </div>
        <div>
          <dt>{text.held}</dt>
          <dd data-testid="balance-held">
            <Money amount={user.balances.held} currency={user.currency} />
          </dd>
        </div>
      </dl>
      <nav aria-label={text.quickActions}>
        <ul className="quick-actions">
          <li>
            <Link to="/recharge">{text.actions.recharge}</Link>
          </li>
          <li>
            <Link to="/transfer">{text.actions.transfer}</Link>
          </li>
          <li>
            <Link to="/order">{text.actions.order}</Link>
          </li>
          <li>
            <Link to="/task">{text.actions.task}</Link>
          </li>
        </ul>
      </nav>
      <ul className="counts">
        <li>
          <Link to="/task?tab=mine">{text.toDo(overview.toDo)}</Link>
        </li>
        <li>
          <Link to="/check">{text.toCheck(overview.toCheck)}</Link>
        </li>
      </ul>
      <h2>{text.recent}</h2>
      {overview.entries.length === 0 ? (
        <p className="empty">{text.noEntries}</p>
      ) : (
        <ul className="item-list" aria-label={text.recent}>
          {overview.entries.map((entry) => (
            <li key={entry.id} className="item">
              <span className="item-main">
                <span className="item-title">
                  {text.entryKind[entry.kind] ?? text.entryOther} {entry.counterparty}
                </span>
                <span className="item-meta">
                  <DateTime iso={entry.createdAt} />
                </span>
              </span>
              <Money amount={entry.amount} signed />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "signed-out") return <Welcome />;
  return (
    <PersonalView result={loaderData} purpose="">
      {(overview) => <Wallet overview={overview} />}
    </PersonalView>
  );
}
