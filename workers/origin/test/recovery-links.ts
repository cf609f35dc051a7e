import type { TestOrigin } from "./origin-client";

type Operator = { auth: Record<string, string> };
const key = (what: string) => ({ "Idempotency-Key": `${what}-${crypto.randomUUID()}` });

/** One admin asks for a recovery link for `personId`: the answer (docs/decisions/062-recovery-links-need-a-second-admin.md). */
export function askForRecoveryLink(
  origin: TestOrigin,
  asker: Operator,
  personId: string,
  reason = "Video call; ID card matched the account's name",
) {
  return origin.call("/api/ops/recovery-link-requests", { body: { personId, reason }, headers: { ...asker.auth, ...key("ask") } });
}

export function decideOnRecoveryLink(origin: TestOrigin, decider: Operator, id: string, decision: "approve" | "reject", body: object = {}) {
  return origin.call(`/api/ops/recovery-link-requests/${id}/${decision}`, { body, headers: { ...decider.auth, ...key(decision) } });
}

export function issueRecoveryLink(origin: TestOrigin, asker: Operator, id: string, idempotencyKey = `issue-${crypto.randomUUID()}`) {
  return origin.call(`/api/ops/recovery-link-requests/${id}/issue`, { headers: { ...asker.auth, "Idempotency-Key": idempotencyKey } });
}

/** Asked by one admin, approved by another, issued: the issue's answer. */
export async function approvedRecoveryLink(origin: TestOrigin, asker: Operator, approver: Operator, personId: string): Promise<Response> {
  const asked = await askForRecoveryLink(origin, asker, personId);
  if (asked.status !== 201) throw new Error(`asking for a recovery link answered ${asked.status}: ${await asked.text()}`);
  const { id } = ((await asked.json()) as { data: { id: string } }).data;
  const approved = await decideOnRecoveryLink(origin, approver, id, "approve");
  if (approved.status !== 200) throw new Error(`approving a recovery link answered ${approved.status}: ${await approved.text()}`);
  return issueRecoveryLink(origin, asker, id);
}

/** The link's token in an issue's answer. */
export async function recoveryLinkToken(issued: Response): Promise<string> {
  const { path } = ((await issued.json()) as { data: { path: string } }).data;
  return new URL(path, "https://paydesk.test").searchParams.get("link") ?? "";
}
