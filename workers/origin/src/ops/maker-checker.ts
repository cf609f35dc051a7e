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
 * Whether `operatorId` may be the second admin of a request: an admin since before it was
 * asked for, made one by someone other than the asker. A second account the asker granted
 * admin to is not a second admin; and since a raise needs a second admin itself
 * (docs/decisions/063-role-raises-need-a-second-admin.md), neither is one made through a
 * chain without another admin's approval. The triggers of migrations 0040 and 0041 hold
 * the same.
 */
export async function isSecondAdmin(
  db: D1Database,
  operatorId: string,
  request: { requested_at: number; requested_by: string },
): Promise<boolean> {
  const found = await db
    .prepare(
      `SELECT 1 AS ok FROM operator_role
       WHERE user_id = ?1 AND role = 'admin' AND granted_at <= ?2 AND granted_by <> (SELECT handle FROM user WHERE id = ?3)`,
    )
    .bind(operatorId, request.requested_at, request.requested_by)
    .first<{ ok: 1 }>();
  return found !== null;
}
