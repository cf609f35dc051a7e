/**
 * Roles asked for, on the operators page (docs/decisions/063-role-raises-need-a-second-admin.md):
 * a role that gives someone more rights is granted when another admin approves it. The
 * page's action reads the intents `approve` and `reject` (DecisionForm).
 */
import type { RoleRequest } from "#contract/ops-role-requests";
import { DateTime } from "../components/money";
import { useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { DecisionForm } from "./decision-form";
import { useOperator } from "./ops-context";

/** A request, and what this admin may do with it. */
function RequestLine({ request }: { request: RoleRequest }) {
  const text = useMessages(opsMessages);
  const mine = request.requestedBy.handle === useOperator().handle;
  const awaiting = request.status === "awaiting_approval";
  const closed = awaiting && Date.parse(request.openUntil) <= Date.now();
  const what = `ops-role-request-${request.id}`;
  return (
    <li className="card">
      <p id={what}>
        <strong>
          {request.person.displayName} (@{request.person.handle})
        </strong>{" "}
        · {request.roleBefore ? text.role[request.roleBefore] : text.noRole} → {text.role[request.role]} · {request.reason}
      </p>
      <p className="item-meta">
        {closed ? text.recoveryLinkStatusClosed : text.roleRequestStatus[request.status]} · <DateTime iso={request.requestedAt} /> ·{" "}
        {text.requestedBy(request.requestedBy.displayName)}
        {request.decidedBy ? ` · ${text.decidedBy(request.decidedBy.displayName)}` : null}
        {request.decisionNote ? ` · ${request.decisionNote}` : null}
        {awaiting && !closed ? (
          <>
            {" "}
            · {text.openUntil} <DateTime iso={request.openUntil} />
          </>
        ) : null}
      </p>
      {closed ? <p>{text.roleRequestClosed}</p> : null}
      {mine && awaiting && !closed ? <p>{text.yourRecoveryLinkWaits}</p> : null}
      {/* A closed request may still be rejected, which lets a new one be asked for at once.
          Decided, the form keeps saying what it did while the page is open. */}
      {!mine ? (
        <DecisionForm
          subjectId={request.id}
          approvedText={text.roleApproved}
          rejectedText={text.roleRejected}
          open={awaiting}
          describedBy={what}
        />
      ) : null}
    </li>
  );
}

export function RoleRequestsSection({ requests }: { requests: RoleRequest[] }) {
  const text = useMessages(opsMessages);
  if (requests.length === 0) return null;
  return (
    <section aria-labelledby="ops-role-requests-title">
      <h2 id="ops-role-requests-title">{text.roleRequestsTitle}</h2>
      <ul className="item-list" data-testid="ops-role-requests">
        {requests.map((request) => (
          <RequestLine key={request.id} request={request} />
        ))}
      </ul>
    </section>
  );
}
