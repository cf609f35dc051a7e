/*
 * The statement for someone signed in: a chunk fetched on first use (app/routes/wallet.tsx,
 * docs/decisions/043-screens-after-start-up.md).
 */
import { useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import type { WalletEntriesFilter, WalletEntry } from "#contract/wallet";
import { walletEntryKinds } from "#contract/value-lists";
import { DateTime } from "../components/money";
import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { walletMessages } from "../messages/wallet";
import { EntryChange } from "./entry-change";
import { MonthsChart } from "./months-chart";
import { StatementExport } from "./statement-export";
import { type Statement, statementDirections } from "./statement-filter";

function Filters({ filter }: { filter: WalletEntriesFilter }) {
  const text = useMessages(walletMessages);
  // The browser itself refuses a range that ends before it begins, before anything is sent.
  const [from, setFrom] = useState(filter.from ?? "");
  return (
    <Form method="get" className="filter-bar statement-filters" aria-label={text.filters}>
      <label>
        {text.kindLabel}{" "}
        <select name="kind" defaultValue={filter.kind ?? ""}>
          <option value="">{text.kindAll}</option>
          {walletEntryKinds.map((kind) => (
            <option key={kind} value={kind}>
              {text.kind[kind]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {text.directionLabel}{" "}
        <select name="direction" defaultValue={filter.direction ?? ""}>
          <option value="">{text.directionAll}</option>
          {statementDirections.map((direction) => (
            <option key={direction} value={direction}>
              {text.direction[direction]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {text.fromLabel} <input type="date" name="from" value={from} onChange={(event) => setFrom(event.target.value)} />
      </label>
      <label>
        {text.toLabel} <input type="date" name="to" defaultValue={filter.to ?? ""} min={from || undefined} />
      </label>
      <button type="submit" className="button button-secondary">
        {text.apply}
      </button>
      {Object.keys(filter).length > 0 ? <Link to="/wallet">{text.clear}</Link> : null}
    </Form>
  );
}

/** Who or what a line concerns: the other person (handle beside the name), the task or the order. */
function subjectOf(entry: WalletEntry): string {
  if (entry.counterparty) return `${entry.counterparty.displayName} (@${entry.counterparty.handle})`;
  if (entry.task) return entry.task.title;
  return entry.orderId ?? "";
}

function Line({ entry }: { entry: WalletEntry }) {
  const text = useMessages(walletMessages);
  const language = useLanguage();
  const title = `${text.kind[entry.kind]} ${subjectOf(entry)}`.trim();
  return (
    <li className="item statement-line" data-testid="statement-line" data-kind={entry.kind}>
      <span className="item-main">
        <span className="item-title">{title}</span>
        <span className="item-meta">
          <DateTime iso={entry.createdAt} />
          {entry.note ? ` · ${entry.note}` : null}
        </span>
      </span>
      <span className="item-side statement-figures">
        <EntryChange entry={entry} heldLabel={text.heldChange} />
        <span className="item-meta" data-testid="balance-after">
          {text.balanceAfter(formatMoney(entry.balanceAfter, language))}
        </span>
        {entry.receipt ? (
          <Link to={`/wallet/receipts/${entry.receipt.kind}/${entry.receipt.id}`} aria-label={text.receiptFor(title)}>
            {text.receipt}
          </Link>
        ) : null}
      </span>
    </li>
  );
}

/** The statement for someone signed in: its filters, its lines, its months and its export. */
export function StatementView({ statement }: { statement: Statement }) {
  const text = useMessages(walletMessages);
  const [params] = useSearchParams();
  const filterQuery = new URLSearchParams(statement.filter);
  const { entries, nextCursor } = statement.page;
  return (
    <>
      {/* A fresh form for each address: its fields show the filters of the page shown. */}
      <Filters key={filterQuery.toString()} filter={statement.filter} />
      {entries.length === 0 ? (
        <p className="empty">{text.empty}</p>
      ) : (
        <ul className="item-list" aria-label={text.entries}>
          {entries.map((entry) => (
            <Line key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
      <p className="pager">
        {params.get("cursor") ? <Link to={`/wallet?${filterQuery}`}>{text.newest}</Link> : null}
        {nextCursor ? <Link to={`/wallet?${new URLSearchParams({ ...statement.filter, cursor: nextCursor })}`}>{text.older}</Link> : null}
      </p>
      <div className="statement-extras">
        <MonthsChart months={statement.months} />
        <StatementExport />
      </div>
    </>
  );
}
