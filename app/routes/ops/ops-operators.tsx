import { useFetcher } from "react-router";
import type { Route } from "./+types/ops-operators";
import type { Operator } from "#contract/ops";
import type { RoleRequest } from "#contract/ops-role-requests";
import { decideRoleRequest, grantRole, listOperators, revokeRole, roleRequests } from "../../api/ops";
import { useAnnounceSuccess } from "../../components/announcer";
import { DateTime } from "../../components/money";
import { formText, runAction, type ActionResult } from "../../forms/action-result";
import { Field, FormAlert, SelectField, SubmitButton } from "../../forms/fields";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { fieldError } from "../../forms/failure-fields";
import { useFormInstance } from "../../forms/use-form-instance";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { OpsView } from "../../ops/ops-view";
import { RoleRequestsSection } from "../../ops/role-requests";
import { loadPersonal } from "../../personal/load-personal";

const roles = ["support", "finance", "admin"] as const;

export async function clientLoader() {
  return loadPersonal(async (api) => {
    const [operators, requests] = await Promise.all([listOperators(api), roleRequests(api)]);
    return { operators, requests };
  });
}

const decideRole = (decision: "approve" | "reject") => (form: FormData) =>
  runAction(decision, (api) =>
    decideRoleRequest(api, formText(form, "subjectId"), decision, formText(form, "note"), formText(form, "idempotencyKey")),
  );

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return dispatchIntent(await request.formData(), {
    grant: (form) =>
      runAction("grant", (api) =>
        grantRole(
          api,
          { handle: formText(form, "handle").trim().toLowerCase(), role: formText(form, "role"), reason: formText(form, "reason") },
          formText(form, "idempotencyKey"),
        ),
      ),
    revoke: (form) =>
      runAction("revoke", (api) => revokeRole(api, formText(form, "handle"), formText(form, "reason"), formText(form, "idempotencyKey"))),
    approve: decideRole("approve"),
    reject: decideRole("reject"),
  });
}

/**
 * An admin grants or changes a role, with the reason the audit trail keeps
 * (docs/decisions/012-operators-and-audit.md): a raise is asked for, and granted by another
 * admin's approval (063); a lower role is set at once.
 */
function GrantForm() {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult<Operator | RoleRequest>>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const done = fetcher.data?.ok ? ("requestedBy" in fetcher.data.data ? text.roleAsked : text.roleLowered) : "";
  useAnnounceSuccess(fetcher.data, done);
  return (
    <fetcher.Form method="post" ref={formRef} className="card ops-actions" aria-labelledby="ops-grant-title">
      <h2 id="ops-grant-title">{text.grantTitle}</h2>
      <p>{text.roleLead}</p>
      <FormAlert result={fetcher.data} fields={["handle", "role", "reason"]} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <input type="hidden" name="intent" value="grant" />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <Field
        id="ops-grant-handle"
        name="handle"
        label={text.handle}
        required
        maxLength={32}
        autoComplete="off"
        error={fieldError(fetcher.data, "handle")}
      />
      <SelectField
        id="ops-grant-role"
        name="role"
        label={text.roleLabel}
        options={roles.map((role) => ({ value: role, label: text.role[role] }))}
        error={fieldError(fetcher.data, "role")}
      />
      <Field id="ops-grant-reason" name="reason" label={text.reason} required error={fieldError(fetcher.data, "reason")} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.grant}>
        {text.grant}
      </SubmitButton>
    </fetcher.Form>
  );
}

function RevokeForm({ operator }: { operator: Operator }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  useAnnounceSuccess(fetcher.data, text.revoked);
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions">
      <FormAlert result={fetcher.data} fields={["reason"]} />
      <input type="hidden" name="intent" value="revoke" />
      <input type="hidden" name="handle" value={operator.handle} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <Field id={`ops-revoke-${operator.handle}`} name="reason" label={text.reason} required error={fieldError(fetcher.data, "reason")} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.revoke} className="button button-secondary">
        {text.revoke}
      </SubmitButton>
    </fetcher.Form>
  );
}

export default function OpsOperators({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  return (
    <section aria-labelledby="ops-operators-title">
      <h1 id="ops-operators-title">{text.operatorsTitle}</h1>
      <GrantForm />
      <OpsView result={loaderData}>
        {({ operators, requests }) => (
          <>
            <RoleRequestsSection requests={requests} />
            <ul className="item-list" data-testid="ops-operators">
              {operators.map((operator) => (
                <li key={operator.handle} className="card">
                  <p>
                    <strong>
                      {operator.displayName} (@{operator.handle})
                    </strong>{" "}
                    · {text.role[operator.role]}
                  </p>
                  <p className="item-meta">
                    <DateTime iso={operator.grantedAt} /> · {text.grantedBy(operator.grantedBy)}
                    {operator.approvedBy ? ` · ${text.approvedBy(operator.approvedBy)}` : null}
                  </p>
                  <RevokeForm operator={operator} />
                </li>
              ))}
            </ul>
          </>
        )}
      </OpsView>
    </section>
  );
}
