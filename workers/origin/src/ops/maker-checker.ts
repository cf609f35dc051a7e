/**
 * What every request a second operator decides on has in common (refunds:
 * docs/decisions/015-operator-refunds.md; code batches: 049; recovery links: 062): the doors
 * that approve and reject it, and what it shows of who asked and who decided, from the
 * columns each list selects under these names.
 */
import { createRoute } from "@hono/zod-openapi";
import type { z } from "zod";
import { type errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { approvalBodySchema, rejectionBodySchema } from "#contract/ops";

type ErrorAnswer = ReturnType<typeof errorContent>;
type DecisionDoc = { summary: string; outcome: string };

/**
 * The approve (an optional note) and reject (a reason) doors of a request at `base`, each with
 * an Idempotency-Key; `answer` is the request as decided, `errors` what each refuses with.
 */
export function decisionRoutes<Params extends z.ZodObject, Answer extends z.ZodType>({
  base,
  params,
  answer,
  errors,
  approve,
  reject,
}: {
  base: string;
  params: Params;
  answer: Answer;
  errors: { 403: ErrorAnswer; 404: ErrorAnswer; 409: ErrorAnswer; 422?: ErrorAnswer };
  approve: DecisionDoc;
  reject: DecisionDoc;
}) {
  const door = <Body extends z.ZodType>(path: string, body: Body, { summary, outcome }: DecisionDoc) =>
    createRoute({
      method: "post",
      path,
      summary,
      security: operatorSession,
      request: {
        headers: idempotencyKeyHeader,
        params,
        body: { content: { "application/json": { schema: body } }, required: true },
      },
      responses: { 200: jsonContent(successEnvelope(answer), outcome), ...errors },
    });
  return { approve: door(`${base}/approve`, approvalBodySchema, approve), reject: door(`${base}/reject`, rejectionBodySchema, reject) };
}

export type DecisionColumns = {
  requested_at: number;
  decided_at: number | null;
  decision_note: string | null;
  requester_handle: string;
  requester_name: string;
  decider_handle: string | null;
  decider_name: string | null;
};

const iso = (at: number) => new Date(at).toISOString();

export function decisionFieldsOf(row: DecisionColumns) {
  return {
    requestedBy: { handle: row.requester_handle, displayName: row.requester_name },
    requestedAt: iso(row.requested_at),
    decidedBy:
      row.decider_handle === null || row.decider_name === null ? null : { handle: row.decider_handle, displayName: row.decider_name },
    decidedAt: row.decided_at === null ? null : iso(row.decided_at),
    decisionNote: row.decision_note,
  };
}

/**
 * What the second operator of a request must hold: a role that moves money, finance or admin
 * (refunds, code batches), or admin (recovery links, roles).
 */
type SecondRole = "finance" | "admin";

/**
 * Whether `operatorId` may be the second operator of a request: holding the role `role` names
 * since before it was asked for, and linked to the asker by no chain of grants, either way (the view `operators_linked`, migration 0041). An account the asker made
 * an operator, or one that made the asker one, is not a second operator, however long the
 * chain; and since a raise takes two admins (docs/decisions/063-role-raises-need-a-second-admin.md),
 * no new chain is one admin's alone. The triggers of migrations 0041 and 0042 hold the same
 * (docs/decisions/064-second-operators-are-other-people.md).
 */
export async function isSecondOperator(
  db: D1Database,
  operatorId: string,
  request: { requested_at: number; requested_by: string },
  role: SecondRole,
): Promise<boolean> {
  if (operatorId === request.requested_by) return false;
  const found = await db
    .prepare(`SELECT ${secondOperatorSql("?1", "?2", "?3", role)} AS ok`)
    .bind(operatorId, request.requested_at, request.requested_by)
    .first<{ ok: number }>();
  return found?.ok === 1;
}

/** The same as an SQL expression (1 or 0) over the operator, the request's time and its asker, for a list to say it of each row. */
export function secondOperatorSql(operator: string, requestedAt: string, requestedBy: string, role: SecondRole): string {
  const roles = role === "admin" ? "'admin'" : "'finance', 'admin'";
  return `(EXISTS (SELECT 1 FROM operator_role WHERE user_id = ${operator} AND role IN (${roles}) AND granted_at <= ${requestedAt})
    AND NOT EXISTS (SELECT 1 FROM operators_linked WHERE operator_id = ${operator} AND other_id = ${requestedBy}))`;
}
