import { useState } from "react";
import { walletExportMaxDays } from "#contract/value-lists";
import { downloadStatement } from "../api/wallet-export";
import { chinaDayOf } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { messageFor } from "../messages/errors";
import { walletMessages } from "../messages/wallet";

type Outcome = { state: "idle" | "busy" | "done" } | { state: "failed"; message: string; field?: "from" | "to"; sent?: boolean };

const dayMs = 24 * 60 * 60 * 1000;

/** The range's own rules (the contract's walletExportQuerySchema), checked before asking. */
function rangeRefusal(range: { from: string; to: string }, text: (typeof walletMessages)["en"]): Outcome | null {
  if (!range.from || !range.to) return { state: "failed", message: text.dateRequired, field: range.from ? "to" : "from" };
  // A date field takes years of five or six digits; the origin reads dates as YYYY-MM-DD only.
  const unreadable = (["from", "to"] as const).find((field) => !/^\d{4}-\d{2}-\d{2}$/.test(range[field]));
  if (unreadable) return { state: "failed", message: text.dateInvalid, field: unreadable };
  const days = (Date.parse(range.to) - Date.parse(range.from)) / dayMs + 1;
  if (days < 1) return { state: "failed", message: text.toBeforeFrom, field: "to" };
  if (days > walletExportMaxDays) return { state: "failed", message: text.rangeTooLong(walletExportMaxDays), field: "to" };
  return null;
}

/** Downloads the statement of some days as CSV: fetched with the bearer token, then saved. */
export function StatementExport() {
  const text = useMessages(walletMessages);
  const language = useLanguage();
  const today = chinaDayOf(Date.now());
  const [range, setRange] = useState({ from: `${today.slice(0, 8)}01`, to: today });
  const [outcome, setOutcome] = useState<Outcome>({ state: "idle" });
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const refusal = rangeRefusal(range, text);
    if (refusal) return setOutcome(refusal);
    setOutcome({ state: "busy" });
    const result = await downloadStatement(range);
    if (result.ok) return setOutcome({ state: "done" });
    const field = result.field === "from" || result.field === "to" ? result.field : undefined;
    const message = await messageFor(result.code, language, {
      originMessage: result.message,
      field: result.field,
      retryAfterSeconds: result.retryAfterSeconds,
    });
    setOutcome({ state: "failed", message, sent: true, ...(field ? { field } : {}) });
  };
  const invalid = (field: "from" | "to") => outcome.state === "failed" && outcome.field === field;
  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">{text.exportTitle}</h2>
      <p className="hint" id="export-hint">
        {text.exportLead}
      </p>
      <form className="filter-bar statement-export" onSubmit={(event) => void submit(event)} aria-describedby="export-hint" noValidate>
        <label>
          {text.fromLabel}{" "}
          <input
            type="date"
            name="from"
            value={range.from}
            onChange={(event) => setRange({ ...range, from: event.target.value })}
            aria-invalid={invalid("from") || undefined}
            aria-errormessage={invalid("from") ? "export-error" : undefined}
          />
        </label>
        <label>
          {text.toLabel}{" "}
          <input
            type="date"
            name="to"
            value={range.to}
            min={range.from || undefined}
            onChange={(event) => setRange({ ...range, to: event.target.value })}
            aria-invalid={invalid("to") || undefined}
            aria-errormessage={invalid("to") ? "export-error" : undefined}
          />
        </label>
        <button type="submit" className="button" disabled={outcome.state === "busy"}>
          {outcome.state === "busy" ? text.downloading : text.download}
        </button>
      </form>
      {outcome.state === "failed" ? (
        <p className="form-error" role="alert" id="export-error">
          {outcome.sent ? `${text.exportFailed} ${outcome.message}` : outcome.message}
        </p>
      ) : null}
      {outcome.state === "done" ? <p role="status">{text.downloaded}</p> : null}
    </section>
  );
}
