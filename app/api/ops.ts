/** The back office's calls (docs/decisions/012-operators-and-audit.md and after), as the signed-in operator. */
import type { z } from "zod";
import type { OperatorSelf } from "#contract/ops";
import type { Overview } from "#contract/ops-overview";
import type { OrderStory } from "#contract/ops-orders";
import type { PersonPage, peoplePageSchema } from "#contract/ops-people";
import type { orderRefundsSchema, RefundRequest } from "#contract/ops-refunds";
import { apiPath, withQuery } from "./api-path";
import type { SignedInApi } from "./client";

export type PeoplePage = z.infer<typeof peoplePageSchema>;
export type OrderRefunds = z.infer<typeof orderRefundsSchema>;
export type AccountAction = "lock" | "unlock" | "sign-out-everywhere";

export const getOperator = (api: SignedInApi) => api.get<OperatorSelf>("/api/ops/me");

export const searchPeople = (api: SignedInApi, q: string, cursor?: string) =>
  api.get<PeoplePage>(withQuery("/api/ops/people", { q, cursor }));

export const getPersonPage = (api: SignedInApi, id: string) => api.get<PersonPage>(apiPath`/api/ops/people/${id}`);

export function actOnAccount(api: SignedInApi, id: string, action: AccountAction, reason: string, idempotencyKey: string) {
  const paths = {
    lock: apiPath`/api/ops/people/${id}/lock`,
    unlock: apiPath`/api/ops/people/${id}/unlock`,
    "sign-out-everywhere": apiPath`/api/ops/people/${id}/sign-out-everywhere`,
  } as const;
  return api.post<unknown>(paths[action], { reason }, idempotencyKey);
}

export const getOrderStory = (api: SignedInApi, id: string) => api.get<OrderStory>(apiPath`/api/ops/orders/${id}`);

export const getOrderRefunds = (api: SignedInApi, id: string) => api.get<OrderRefunds>(apiPath`/api/ops/orders/${id}/refunds`);

export const makeRefund = (api: SignedInApi, orderId: string, body: { amount: number; reason: string }, idempotencyKey: string) =>
  api.post<RefundRequest>(apiPath`/api/ops/orders/${orderId}/refunds`, body, idempotencyKey);

export const refundsAwaitingApproval = (api: SignedInApi) => api.get<RefundRequest[]>("/api/ops/refunds");

export function decideRefund(api: SignedInApi, id: string, decision: "approve" | "reject", note: string, idempotencyKey: string) {
  return decision === "approve"
    ? api.post<RefundRequest>(apiPath`/api/ops/refunds/${id}/approve`, note ? { note } : {}, idempotencyKey)
    : api.post<RefundRequest>(apiPath`/api/ops/refunds/${id}/reject`, { reason: note }, idempotencyKey);
}

export const getOverview = (api: SignedInApi) => api.get<Overview>("/api/ops/overview");
