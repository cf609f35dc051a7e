import { useState } from "react";
import { Form, useRevalidator, useSearchParams } from "react-router";
import type { Route } from "./+types/ops-ledger";
import type { JournalTx } from "#contract/ops-ledger";
import { withQuery } from "../../api/api-path";
import { ApiFailure } from "../../api/client";
import { checkLedger, getJournalTx } from "../../api/ops";
import { DateTime, Money } from "../../components/money";
import { Field } from "../../forms/fields";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { downloadWithToken } from "../../api/download";
import { OpsView } from "../../ops/ops-view";
import { loadPersonal } from "../../personal/load-personal";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const tx = new URL(request.url).searchParams.get("tx")?.trim() || null;
  return loadPersonal(async (api) => {
    const check = await checkLedger(api);
    if (!tx) return { check, tx: null };
    try {
      return { check, tx: await getJournalTx(api, tx) };
    } catch (error) {
      // An unknown or malformed id is an answer to show, not a failed page.
      if (error instanceof ApiFailure && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST"))
        return { check, tx: "missing" as const };
      throw error;
    }
  });
}

/** A day as the start of that day in China (UTC+8), as the API takes instants. */
const chinaDayStart = (day: string) => new Date(`${day}T00:00:00+08:00`).toISOString();

function Transaction({ tx }: { tx: JournalTx }) {
  const text = useMessages(opsMessages);
  const links = Object.entries(tx.belongsTo).filter(([, value]) => value !== null);
  return (
    <article className="card" aria-labelledby="ops-tx-title" data-testid="ops-tx">
      <h3 id="ops-tx-title">
        {text.journalKind[tx.kind] ?? tx.kind} · {tx.id}
      </h3>
      <p className="item-meta">
        <DateTime iso={tx.createdAt} /> · {tx.sealed ? text.sealed : text.unsealed}
        {links.length > 0 ? ` · ${text.belongsTo}: ${links.map(([name, value]) => `${name} ${value}`).join(", ")}` : ""}
      </p>
      <ul className="item-list">
        {tx.entries.map((entry) => (
          <li key={entry.id} className="item">
            <span className="item-main">
              <span className="item-title">{entry.owner ? `${entry.owner.displayName} (@${entry.owner.handle})` : entry.accountId}</span>
              <span className="item-meta">
                {entry.accountKind} · {entry.bucket}
              </span>
            </span>
            <span className="item-side">
              <Money amount={entry.amount} signed />
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function OpsLedger({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const [range, setRange] = useState({ from: "", to: "" });
  const [downloadFailed, setDownloadFailed] = useState(false);
  const download = async () => {
    if (!range.from || !range.to) return setDownloadFailed(true);
    const path = withQuery("/api/ops/ledger/entries.csv", { from: chinaDayStart(range.from), to: chinaDayStart(range.to) });
    setDownloadFailed(!(await downloadWithToken(path, `paydesk-entries-${range.from}-${range.to}.csv`)).ok);
  };
  return (
    <section aria-labelledby="ops-ledger-title">
      <h1 id="ops-ledger-title">{text.ledgerTitle}</h1>
      <OpsView result={loaderData}>
        {({ check, tx }) => (
          <div className="ops-actions">
            <section aria-labelledby="ops-check-title" className="card">
              <h2 id="ops-check-title">{text.ledgerCheck}</h2>
              <p role="status" data-testid="ops-ledger-check" className={check.violations.length > 0 ? "form-error" : undefined}>
                {check.violations.length === 0 ? text.ledgerWhole : text.ledgerBroken(check.violations.length)} (
                <DateTime iso={check.checkedAt} />)
              </p>
              {check.violations.length > 0 ? (
                <ul>
                  {check.violations.map((violation, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list is the check's answer as it came; nothing in a row is unique.
                    <li key={index}>
                      {violation.invariant}: <code>{JSON.stringify(violation.detail)}</code>
                    </li>
                  ))}
                </ul>
              ) : null}
              <button type="button" className="button button-secondary" onClick={() => void revalidator.revalidate()}>
                {text.runCheck}
              </button>
            </section>
            <section aria-labelledby="ops-lookup-title" className="card">
              <h2 id="ops-lookup-title">{text.lookUp}</h2>
              <Form method="get" className="form-actions">
                <Field id="ops-tx-id" name="tx" label={text.txId} defaultValue={params.get("tx") ?? ""} maxLength={80} />
                <button className="button" type="submit">
                  {text.find}
                </button>
              </Form>
              {tx === "missing" ? <p role="status">{text.txNotFound}</p> : tx ? <Transaction tx={tx} /> : null}
            </section>
            <section aria-labelledby="ops-export-title" className="card">
              <h2 id="ops-export-title">{text.exportTitle}</h2>
              <div className="form-actions">
                <Field
                  id="ops-export-from"
                  label={text.exportFrom}
                  type="date"
                  value={range.from}
                  onChange={(event) => setRange({ ...range, from: event.target.value })}
                />
                <Field
                  id="ops-export-to"
                  label={text.exportTo}
                  type="date"
                  value={range.to}
                  onChange={(event) => setRange({ ...range, to: event.target.value })}
                />
                <button className="button" type="button" onClick={() => void download()}>
                  {text.downloadCsv}
                </button>
              </div>
              {downloadFailed ? (
                <p className="form-error" role="alert">
                  {text.downloadFailed}
                </p>
              ) : null}
            </section>
          </div>
        )}
      </OpsView>
    </section>
  );
}
