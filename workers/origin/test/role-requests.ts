/** What asking for and deciding on roles needs of an origin (this directory's, or the WeChat Pay tests'). */
type RoleCaller = {
  call: (path: string, init: { body?: unknown; headers?: Record<string, string> }) => Promise<Response> | Response;
};
type Operator = { auth: Record<string, string> };
const key = (what: string) => ({ "Idempotency-Key": `${what}-${crypto.randomUUID()}` });

/** One admin grants `handle` a role: a raise is asked for, a lower role set (docs/decisions/063-role-raises-need-a-second-admin.md). */
export function grantRole(
  origin: RoleCaller,
  admin: Operator,
  handle: string,
  role: string,
  reason = "Joins the team",
  idempotencyKey?: string,
) {
  return origin.call("/api/ops/operators", {
    body: { handle, role, reason },
    headers: { ...admin.auth, ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : key("grant")), "X-Request-Id": "req-test-1" },
  });
}

export function decideOnRole(origin: RoleCaller, decider: Operator, id: string, decision: "approve" | "reject", body: object = {}) {
  return origin.call(`/api/ops/role-requests/${id}/${decision}`, { body, headers: { ...decider.auth, ...key(decision) } });
}

/** The id in an ask's answer, which must be 202. */
export async function askedRoleRequestId(asked: Response): Promise<string> {
  if (asked.status !== 202) throw new Error(`asking for a role answered ${asked.status}: ${await asked.text()}`);
  return ((await asked.json()) as { data: { id: string } }).data.id;
}

/** Asked for by one admin and approved by another: the role is then `handle`'s. */
export async function roleGrantedByTwoAdmins(origin: RoleCaller, asker: Operator, approver: Operator, handle: string, role: string) {
  const id = await askedRoleRequestId(await grantRole(origin, asker, handle, role));
  const approved = await decideOnRole(origin, approver, id, "approve");
  if (approved.status !== 200) throw new Error(`approving a role answered ${approved.status}: ${await approved.text()}`);
}
