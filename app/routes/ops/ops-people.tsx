import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/ops-people";
import { getPeople } from "../../ops/ops-loaders";
import type { RecoveryLinkRequest } from "#contract/ops-recovery-links";
import { DateTime, Money } from "../../components/money";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { OpsView } from "../../ops/ops-view";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  return getPeople(params.get("q") ?? "", params.get("cursor") ?? undefined);
}

/** For admins: each recovery link still waiting for a decision or its link, and whose page it is on (docs/decisions/062-recovery-links-need-a-second-admin.md). */
function RecoveryLinksWaiting({ requests }: { requests: RecoveryLinkRequest[] }) {
  const text = useMessages(opsMessages);
  if (requests.length === 0) return null;
  return (
    <>
      <h2>{text.recoveryLinksWaitingTitle}</h2>
      <ul className="item-list" data-testid="ops-recovery-links-waiting">
        {requests.map((request) => (
          <li key={request.id} className="item">
            <span className="item-main">
              <Link className="item-title" to={`/ops/people/${encodeURIComponent(request.person.id)}`}>
                {request.person.displayName} (@{request.person.handle})
              </Link>
              <span className="item-meta">
                <DateTime iso={request.requestedAt} /> · {text.requestedBy(request.requestedBy.displayName)}
              </span>
            </span>
            <span className="item-side">
              <span className="badge">{text.recoveryLinkStatus[request.status]}</span>
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export default function OpsPeople({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const [params] = useSearchParams();
  const q = params.get("q") ?? "";
  return (
    <section aria-labelledby="ops-people-title">
      <h1 id="ops-people-title">{text.peopleTitle}</h1>
      <Form method="get" role="search" className="form-actions">
        <div className="field">
          <label htmlFor="ops-people-q">{text.search}</label>
          <input id="ops-people-q" name="q" type="search" defaultValue={q} maxLength={64} autoComplete="off" />
        </div>
        <button className="button" type="submit">
          {text.searchButton}
        </button>
      </Form>
      <OpsView result={loaderData}>
        {(page) => (
          <>
            {page.people.length === 0 ? (
              <p>{text.noPeople}</p>
            ) : (
              <>
                <ul className="item-list" data-testid="ops-people">
                  {page.people.map((person) => (
                    <li key={person.id} className="item">
                      <span className="item-main">
                        <Link className="item-title" to={`/ops/people/${encodeURIComponent(person.id)}`}>
                          {person.displayName} (@{person.handle})
                        </Link>
                        <span className="item-meta">
                          {person.id}
                          {person.operatorRole ? ` · ${text.operatorRole}: ${text.role[person.operatorRole]}` : ""}
                        </span>
                      </span>
                      <span className="item-side">
                        <Money amount={person.balances.available} />
                        {person.lockedAt ? <span className="badge badge-closed">{text.locked}</span> : null}
                      </span>
                    </li>
                  ))}
                </ul>
                {page.nextCursor ? (
                  <p>
                    <Link to={`?q=${encodeURIComponent(q)}&cursor=${encodeURIComponent(page.nextCursor)}`}>{text.more}</Link>
                  </p>
                ) : null}
              </>
            )}
            <RecoveryLinksWaiting requests={page.openRecoveryLinkRequests} />
          </>
        )}
      </OpsView>
    </section>
  );
}
