/**
 * Roles asked for, on the operators page (docs/decisions/063-role-raises-need-a-second-admin.md):
 * a role that gives someone more rights is granted when another admin approves it. The
 * page's action reads the intents `approve` and `reject` (DecisionForm).
 */
import type { RoleRequest } from "#contract/ops-role-requests";
import { useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { DecisionForm } from "./decision-form";
import { DecisionTrail } from "./decision-trail";
import { useOperator } from "./ops-context";

/** A request, and what this admin may do with it. */
function RequestLine({ request }: { request: RoleRequest }) {
  const text = useMessages(opsMessages);
  const me = useOperator().handle;
  const mine = request.requestedBy.handle === me;
  const awaiting = request.status === "awaiting_approval";
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
        {request.closed ? text.roleRequestStatusClosed : text.roleRequestStatus[request.status]} ·{" "}
        <DecisionTrail request={request} openUntil={awaiting && !request.closed ? request.openUntil : undefined} />
      </p>
      {request.closed ? <p>{text.roleRequestClosed[request.closed]}</p> : null}
      {mine && awaiting && !request.closed ? <p>{text.roleRequestWaits}</p> : null}
      {!mine && awaiting && !request.yoursToDecide ? <p>{text.anotherAdminDecides}</p> : null}
      {/* Once decided, a form that was used keeps saying what it did, or why it was refused, while the page is open. */}
      {!mine ? (
        <DecisionForm
          subjectId={request.id}
          approvedText={text.roleApproved}
          rejectedText={text.roleRejected}
          open={request.yoursToDecide}
          approvable={request.closed === null}
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
