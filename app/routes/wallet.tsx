import { useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/wallet";
import type { WalletEntriesFilter, WalletEntry, WalletEntryKind, WalletEntryPage, WalletMonths } from "#contract/wallet";
import { getWalletMonths, listStatement } from "../api/wallet";
import { DateTime, Money } from "../components/money";
import { formatMoney } from "../i18n/format";
import { metaLanguage, useLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { walletMessages } from "../messages/wallet";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { MonthsChart } from "../wallet/months-chart";
import { StatementExport } from "../wallet/statement-export";

export function meta({ matches }: Route.MetaArgs) {
  const text = walletMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

// The filters as the contract names them; listed here so the page does not carry zod.
const kinds = Object.keys(walletMessages.en.kind) as WalletEntryKind[];
const directions = ["in", "out"] as const;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** The address's filters the origin would take; anything else is left out rather than refused. */
function filterOf(params: URLSearchParams): WalletEntriesFilter {
  const kind = kinds.find((known) => known === params.get("kind"));
  const direction = directions.find((known) => known === params.get("direction"));
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  return {
    ...(kind ? { kind } : {}),
    ...(direction ? { direction } : {}),
    ...(dayPattern.test(from) ? { from } : {}),
    ...(dayPattern.test(to) ? { to } : {}),
  };
}

type Statement = { page: WalletEntryPage; months: WalletMonths["months"]; filter: WalletEntriesFilter };

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filter = filterOf(params);
  return loadPersonal<Statement>(async (api) => {
    const [page, months] = await Promise.all([
      listStatement(api, { ...filter, limit: 20, cursor: params.get("cursor") || undefined }),
      getWalletMonths(api),
    ]);
    return { page, months: months.months, filter };
  });
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  const text = useMessages(walletMessages);
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

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
          {kinds.map((kind) => (
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
          {directions.map((direction) => (
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
        {entry.amount === 0 && entry.held !== 0 ? (
          <span>
            <Money amount={entry.held} signed /> <span className="item-meta">{text.heldChange}</span>
          </span>
        ) : (
          <Money amount={entry.amount} signed />
        )}
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

function StatementView({ statement }: { statement: Statement }) {
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

export default function Wallet({ loaderData }: Route.ComponentProps) {
  const text = useMessages(walletMessages);
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">{text.title}</h1>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(statement) => <StatementView statement={statement} />}
      </PersonalView>
    </section>
  );
}
