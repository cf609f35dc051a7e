import { useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/ops-audit";
import { withQuery } from "../../api/api-path";
import { auditTrail } from "../../api/ops";
import { DateTime } from "../../components/money";
import { Field } from "../../forms/fields";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { downloadWithToken } from "../../api/download";
import { OpsView } from "../../ops/ops-view";
import { loadPersonal } from "../../personal/load-personal";

const filterNames = ["actor", "action", "objectType", "objectId", "from", "to"] as const;

/** The filters of the address, as the API takes them (a day becomes its start, in China). */
function filtersOf(params: URLSearchParams): Record<string, string | undefined> {
  const filters: Record<string, string | undefined> = {};
  for (const name of filterNames) {
    const value = params.get(name)?.trim();
    if (!value) continue;
    filters[name] = name === "from" || name === "to" ? new Date(`${value}T00:00:00+08:00`).toISOString() : value;
  }
  return filters;
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  return loadPersonal((api) => auditTrail(api, { ...filtersOf(params), cursor: params.get("cursor") ?? undefined }));
}

export default function OpsAudit({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const [params] = useSearchParams();
  const [downloadFailed, setDownloadFailed] = useState(false);
  const download = async () => {
    setDownloadFailed(!(await downloadWithToken(withQuery("/api/ops/audit.csv", filtersOf(params)), "paydesk-audit.csv")).ok);
  };
  return (
    <section aria-labelledby="ops-audit-title">
      <h1 id="ops-audit-title">{text.auditTitle}</h1>
      <Form method="get" className="ops-grid">
        {filterNames.map((name) => (
          <Field
            key={name}
            id={`ops-audit-${name}`}
            name={name}
            label={text.auditFilters[name]}
            type={name === "from" || name === "to" ? "date" : "text"}
            defaultValue={params.get(name) ?? ""}
            maxLength={128}
          />
        ))}
        <div className="form-actions">
          <button className="button" type="submit">
            {text.filter}
          </button>
          <button className="button button-secondary" type="button" onClick={() => void download()}>
            {text.downloadCsv}
          </button>
        </div>
      </Form>
      {downloadFailed ? (
        <p className="form-error" role="alert">
          {text.downloadFailed}
        </p>
      ) : null}
      <OpsView result={loaderData}>
        {(page) =>
          page.rows.length === 0 ? (
            <p>{text.noAudit}</p>
          ) : (
            <>
              <ul className="item-list" data-testid="ops-audit">
                {page.rows.map((row) => (
                  <li key={row.id} className="item">
                    <span className="item-main">
                      <span className="item-title">
                        {row.action} · {row.objectType} {row.objectId}
                      </span>
                      <span className="item-meta">
                        <DateTime iso={row.at} /> ·{" "}
                        {row.actorHandle ? `@${row.actorHandle} (${row.actorRole})` : text.auditActor[row.actorKind]}
                        {row.reason ? ` · ${row.reason}` : ""}
                      </span>
                      {row.before || row.after ? (
                        <span className="item-meta">
                          <code>{row.before ?? "—"}</code> → <code>{row.after ?? "—"}</code>
                        </span>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
              {page.nextCursor ? (
                <p>
                  <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), cursor: page.nextCursor })}`}>{text.more}</Link>
                </p>
              ) : null}
            </>
          )
        }
      </OpsView>
    </section>
  );
}
