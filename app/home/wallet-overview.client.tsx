/*
 * The landing page for someone signed in: a chunk fetched on first use (app/routes/home.tsx),
 * not with a first visit (docs/decisions/043-screens-after-start-up.md).
 */
import { Link } from "react-router";
import type { WalletEntry } from "#contract/wallet";
import { DateTime, Money } from "../components/money";
import { useMessages } from "../i18n/messages";
import { walletOverviewMessages } from "../messages/wallet-overview";
import type { UserInfo } from "#contract/user-info";
import { EntryChange } from "../wallet/entry-change";

export type Overview = { entries: WalletEntry[]; toDo: number; toCheck: number };

/** Who or what an entry concerns: the other user, the task or the order. */
function entrySubject(entry: WalletEntry): string {
  if (entry.counterparty) return `${entry.counterparty.displayName} (@${entry.counterparty.handle})`;
  if (entry.task) return entry.task.title;
  return entry.orderId ?? "";
}

export function WalletOverview({ overview, user }: { overview: Overview; user: UserInfo }) {
  const text = useMessages(walletOverviewMessages);
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
              <EntryChange entry={entry} heldLabel={text.heldSuffix} />
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
