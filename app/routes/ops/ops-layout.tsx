import { data, Link, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/ops-layout";
import { ApiFailure, signedInApi } from "../../api/client";
import type { OperatorSelf } from "#contract/ops";
import { getOperator } from "../../api/ops";
import { Spinner } from "../../components/spinner";
import { useLayoutMessages } from "../../i18n/layout-messages";
import { metaLanguage, useMessages } from "../../i18n/messages";
import { pageMeta } from "../../i18n/page-meta";
import { opsMessages } from "../../messages/ops";
import { currentToken } from "../../session/account-session";
import "../../styles/ops.css";

// Never indexed: the edge also says so in X-Robots-Tag and never caches these pages.
export function meta({ matches }: Route.MetaArgs) {
  const text = opsMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description, { name: "robots", content: "noindex, nofollow" });
}

/**
 * The back office's door for pages, as /api/ops/* has it: anyone who is not an operator —
 * signed out, or signed in without a role — gets the ordinary 404 page, so the page does not
 * say that a back office is here.
 */
export async function clientLoader() {
  const token = currentToken();
  if (!token) throw data(null, { status: 404 });
  try {
    return { operator: await getOperator(signedInApi(token)) };
  } catch (error) {
    if (error instanceof ApiFailure && (error.code === "NOT_FOUND" || error.code === "UNAUTHENTICATED")) throw data(null, { status: 404 });
    throw error;
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <main id="main" className="ops-main">
      <Spinner />
    </main>
  );
}

/**
 * How many requests on a page wait for this operator's decision, beside its link
 * (docs/decisions/066-what-waits-for-you.md); read with the layout, so again after every
 * decision the pages send.
 */
function WaitingCount({ count }: { count: number }) {
  const text = useMessages(opsMessages);
  if (count === 0) return null;
  return (
    <>
      {" "}
      <span className="nav-count" data-testid="ops-nav-count">
        <span aria-hidden="true">{count}</span>
        <span className="visually-hidden">{text.waitingForYou(count)}</span>
      </span>
    </>
  );
}

const nothingWaiting: OperatorSelf["awaitingYou"] = { refunds: 0, refundSettlements: 0, codeBatches: 0, recoveryLinks: 0, roles: 0 };

export default function OpsLayout({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const layout = useLayoutMessages();
  const { operator } = loaderData;
  // An origin from before decision 066 (one rolled back alone) does not count: nothing is shown.
  const waiting = operator.awaitingYou ?? nothingWaiting;
  return (
    <div className="ops">
      <header className="ops-header">
        <a className="skip-link" href="#main">
          {layout.skipToContent}
        </a>
        <div className="ops-header-bar">
          <Link className="brand" to="/ops">
            {text.title}
          </Link>
          <span className="ops-operator" data-testid="ops-operator">
            {text.signedInAs(operator.displayName, text.role[operator.role])}
          </span>
          <Link to="/">{text.backToApp}</Link>
        </div>
        <nav aria-label={text.navigation}>
          <ul className="app-nav">
            <li>
              <NavLink to="/ops" end>
                {text.nav.overview}
              </NavLink>
            </li>
            <li>
              <NavLink to="/ops/people">
                {text.nav.people}
                <WaitingCount count={waiting.recoveryLinks} />
              </NavLink>
            </li>
            <li>
              <NavLink to="/ops/orders">{text.nav.orders}</NavLink>
            </li>
            <li>
              <NavLink to="/ops/tickets">{text.nav.tickets}</NavLink>
            </li>
            {operator.rights.includes("refund") ? (
              <li>
                <NavLink to="/ops/refunds">
                  {text.nav.refunds}
                  {/* Settlements are decided on their order's page, which the refunds page links (decision 072); an origin from before it does not count them. */}
                  <WaitingCount count={waiting.refunds + (waiting.refundSettlements ?? 0)} />
                </NavLink>
              </li>
            ) : null}
            {operator.rights.includes("codes") ? (
              <li>
                <NavLink to="/ops/codes">
                  {text.nav.codes}
                  <WaitingCount count={waiting.codeBatches} />
                </NavLink>
              </li>
            ) : null}
            {operator.rights.includes("ledger") ? (
              <li>
                <NavLink to="/ops/ledger">{text.nav.ledger}</NavLink>
              </li>
            ) : null}
            {operator.rights.includes("grantRoles") ? (
              <li>
                <NavLink to="/ops/operators">
                  {text.nav.operators}
                  <WaitingCount count={waiting.roles} />
                </NavLink>
              </li>
            ) : null}
            {operator.rights.includes("readAudit") ? (
              <li>
                <NavLink to="/ops/audit">{text.nav.audit}</NavLink>
              </li>
            ) : null}
          </ul>
        </nav>
      </header>
      <main id="main" className="ops-main">
        <Outlet context={operator} />
      </main>
    </div>
  );
}
