import { Link } from "react-router";
import type { Route } from "./+types/home";
import type { WalletEntry } from "#contract/wallet";
import { getWalletSummary, listWalletEntries } from "../api/wallet";
import { DateTime, Money } from "../components/money";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { homeMessages } from "../messages/home";
import { loadPersonal } from "../personal/load-personal";
import { PersonalView, UntilSessionKnown } from "../personal/personal-view";
import { useSession } from "../session/session-state";

export function meta({ matches }: Route.MetaArgs) {
  const text = homeMessages[metaLanguage(matches)];
  return pageMeta(text.title, text.description);
}

export async function clientLoader() {
  return loadPersonal(async (api) => {
    const [page, summary] = await Promise.all([listWalletEntries(api, 5), getWalletSummary(api)]);
    return { entries: page.entries, toDo: summary.claimsToSubmit, toCheck: summary.submissionsToCheck };
  });
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <UntilSessionKnown signedOut={<Welcome />} />;
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

type Overview = { entries: WalletEntry[]; toDo: number; toCheck: number };

/** Who or what an entry concerns: the other user, the task or the order. */
function entrySubject(entry: WalletEntry): string {
  if (entry.counterparty) return `${entry.counterparty.displayName} (@${entry.counterparty.handle})`;
  if (entry.task) return entry.task.title;
  return entry.orderId ?? "";
}

function EntryAmount({ entry }: { entry: WalletEntry }) {
  const text = useMessages(homeMessages);
  // Money that only moved between held and paid out (a reward from my task's escrow).
  if (entry.amount === 0 && entry.held !== 0) {
    return (
      <span>
        <Money amount={entry.held} signed /> <span className="item-meta">{text.heldSuffix}</span>
      </span>
    );
  }
  return <Money amount={entry.amount} signed />;
}

function Wallet({ overview }: { overview: Overview }) {
  const text = useMessages(homeMessages);
  const { user } = useSession();
  // Signed out since the data came (here or in another tab): nothing personal stays.
  if (!user) return <Welcome />;
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
                  {text.entryKind[entry.kind] ?? text.entryOther} {entrySubject(entry)}
                </span>
                <span className="item-meta">
                  <DateTime iso={entry.createdAt} />
                </span>
              </span>
              <EntryAmount entry={entry} />
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/wallet">{text.seeStatement}</Link>
      </p>
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
