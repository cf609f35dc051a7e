/** The back office's calls (docs/decisions/012-operators-and-audit.md and after), as the signed-in operator. */
import type { z } from "zod";
import type { RecoveryLink } from "#contract/account-safety";
import type { Operator, OperatorSelf } from "#contract/ops";
import type { auditPageSchema } from "#contract/ops-audit";
import type { CodeBatchRequest, codeBatchPageSchema, issuedCodeBatchSchema, waitingCodeBatchSchema } from "#contract/ops-codes";
import type { DeskThread, deskQueuePageSchema } from "#contract/ops-desk";
import type { JournalTx, ledgerCheckSchema } from "#contract/ops-ledger";
import type { Locks } from "#contract/lock-limits";
import type { Limits } from "#contract/money-limits";
import type { TaskLimits } from "#contract/task-limits";
import type { TextLimits } from "#contract/text-limits";
import type { TimeLimits } from "#contract/time-limits";
import type { Overview } from "#contract/ops-overview";
import type { OpsWechatAsk, OrderStory, orderSearchPageSchema } from "#contract/ops-orders";
import type { PersonPage, peoplePageSchema } from "#contract/ops-people";
import type { RecoveryLinkRequest } from "#contract/ops-recovery-links";
import type { RoleRequest } from "#contract/ops-role-requests";
import type { OpsWechatRefund, orderRefundsSchema, PaidTwiceSettleBody, RefundRequest } from "#contract/ops-refunds";
import { apiPath, withQuery } from "./api-path";
import type { SignedInApi } from "./client";

export type PeoplePage = z.infer<typeof peoplePageSchema>;
export type OrderRefunds = z.infer<typeof orderRefundsSchema>;
export type AccountAction = "lock" | "unlock" | "sign-out-everywhere";

export const getOperator = (api: SignedInApi) => api.get<OperatorSelf>("/api/ops/me");
/** The money limits the origin enforces (docs/decisions/053-deploy-limits.md). */
export const getMoneyLimits = (api: SignedInApi) => api.get<Limits>("/api/limits");
/** The locks against guessing the origin applies (docs/decisions/054-deploy-locks.md). */
export const getLocks = (api: SignedInApi) => api.get<Locks>("/api/locks");
/** The time limits the origin applies (docs/decisions/055-deploy-time-limits.md). */
export const getTimeLimits = (api: SignedInApi) => api.get<TimeLimits>("/api/time-limits");
/** The bounds on a task the origin enforces (docs/decisions/058-deploy-task-limits.md). */
export const getTaskLimits = (api: SignedInApi) => api.get<TaskLimits>("/api/task-limits");
/** The longest texts the origin takes (docs/decisions/059-deploy-text-limits.md). */
export const getTextLimits = (api: SignedInApi) => api.get<TextLimits>("/api/text-limits");

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

/** An admin asks for a recovery link; another approves it (docs/decisions/062-recovery-links-need-a-second-admin.md). */
export const askForRecoveryLink = (api: SignedInApi, personId: string, reason: string, idempotencyKey: string) =>
  api.post<RecoveryLinkRequest>("/api/ops/recovery-link-requests", { personId, reason }, idempotencyKey);

export function decideRecoveryLinkRequest(
  api: SignedInApi,
  id: string,
  decision: "approve" | "reject",
  note: string,
  idempotencyKey: string,
) {
  return decision === "approve"
    ? api.post<RecoveryLinkRequest>(apiPath`/api/ops/recovery-link-requests/${id}/approve`, note ? { note } : {}, idempotencyKey)
    : api.post<RecoveryLinkRequest>(apiPath`/api/ops/recovery-link-requests/${id}/reject`, { reason: note }, idempotencyKey);
}

/** The approved link, shown to whoever asked, in this answer only (docs/decisions/024-account-safety.md). */
export const issueRecoveryLink = (api: SignedInApi, id: string, idempotencyKey: string) =>
  api.post<RecoveryLink>(apiPath`/api/ops/recovery-link-requests/${id}/issue`, {}, idempotencyKey);

export const getOrderStory = (api: SignedInApi, id: string) => api.get<OrderStory>(apiPath`/api/ops/orders/${id}`);

/** Asks WeChat Pay now about the order's payments and open refunds (no key: asking twice is harmless, and throttled). */
export const askWechatPay = (api: SignedInApi, id: string) =>
  api.post<{ asked: OpsWechatAsk; story: OrderStory }>(apiPath`/api/ops/orders/${id}/ask-wechat-pay`, {});

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

export type DeskQueue = z.infer<typeof deskQueuePageSchema>;
export type CodeBatchPage = z.infer<typeof codeBatchPageSchema>;
export type IssuedCodeBatch = z.infer<typeof issuedCodeBatchSchema>;
export type WaitingCodeBatch = z.infer<typeof waitingCodeBatchSchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;

export const ticketQueue = (api: SignedInApi, query: { status?: string; assignee?: string; cursor?: string }) =>
  api.get<DeskQueue>(withQuery("/api/ops/tickets", query));

export const getDeskThread = (api: SignedInApi, id: string) => api.get<DeskThread>(apiPath`/api/ops/tickets/${id}`);

export function workTicket(
  api: SignedInApi,
  id: string,
  work: { assign: "me" | string } | { reply: string } | { close: string },
  idempotencyKey: string,
) {
  if ("assign" in work) return api.post<DeskThread>(apiPath`/api/ops/tickets/${id}/assign`, { to: work.assign }, idempotencyKey);
  if ("reply" in work) return api.post<DeskThread>(apiPath`/api/ops/tickets/${id}/messages`, { message: work.reply }, idempotencyKey);
  return api.post<DeskThread>(apiPath`/api/ops/tickets/${id}/close`, work.close ? { reason: work.close } : {}, idempotencyKey);
}

export const codeBatches = (api: SignedInApi, cursor?: string) => api.get<CodeBatchPage>(withQuery("/api/ops/code-batches", { cursor }));

/** Issued at once, or (past what one operator may issue alone) waiting for a second operator (docs/decisions/049-code-batches-need-a-second-operator.md). */
export const issueCodeBatch = (
  api: SignedInApi,
  body: { value: number; count: number; expiresAt: string; note: string },
  idempotencyKey: string,
) => api.post<IssuedCodeBatch | WaitingCodeBatch>("/api/ops/code-batches", body, idempotencyKey);

export const codeBatchRequests = (api: SignedInApi) => api.get<CodeBatchRequest[]>("/api/ops/code-batch-requests");

export function decideCodeBatchRequest(api: SignedInApi, id: string, decision: "approve" | "reject", note: string, idempotencyKey: string) {
  return decision === "approve"
    ? api.post<CodeBatchRequest>(apiPath`/api/ops/code-batch-requests/${id}/approve`, note ? { note } : {}, idempotencyKey)
    : api.post<CodeBatchRequest>(apiPath`/api/ops/code-batch-requests/${id}/reject`, { reason: note }, idempotencyKey);
}

/** Issues an approved batch the operator asked for: its codes are in this answer only. */
export const issueApprovedCodeBatch = (api: SignedInApi, id: string, idempotencyKey: string) =>
  api.post<IssuedCodeBatch>(apiPath`/api/ops/code-batch-requests/${id}/issue`, {}, idempotencyKey);

export const voidCodeBatch = (api: SignedInApi, id: string, reason: string, idempotencyKey: string) =>
  api.post<unknown>(apiPath`/api/ops/code-batches/${id}/void`, { reason }, idempotencyKey);

export const auditTrail = (api: SignedInApi, query: Record<string, string | undefined>) =>
  api.get<AuditPage>(withQuery("/api/ops/audit", query));

export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;

export const checkLedger = (api: SignedInApi) => api.get<LedgerCheck>("/api/ops/ledger/check");

export const getJournalTx = (api: SignedInApi, id: string) => api.get<JournalTx>(apiPath`/api/ops/ledger/transactions/${id}`);

export type OrderSearchPage = z.infer<typeof orderSearchPageSchema>;

export const searchOrders = (api: SignedInApi, query: Record<string, string | undefined>) =>
  api.get<OrderSearchPage>(withQuery("/api/ops/orders", query));

export const listOperators = (api: SignedInApi) => api.get<Operator[]>("/api/ops/operators");

/** A lower role is set at once; a raise is asked for, and waits for a second admin (docs/decisions/063-role-raises-need-a-second-admin.md). */
export const grantRole = (api: SignedInApi, body: { handle: string; role: string; reason: string }, idempotencyKey: string) =>
  api.post<Operator | RoleRequest>("/api/ops/operators", body, idempotencyKey);

export const roleRequests = (api: SignedInApi) => api.get<RoleRequest[]>("/api/ops/role-requests");

export function decideRoleRequest(api: SignedInApi, id: string, decision: "approve" | "reject", note: string, idempotencyKey: string) {
  return decision === "approve"
    ? api.post<RoleRequest>(apiPath`/api/ops/role-requests/${id}/approve`, note ? { note } : {}, idempotencyKey)
    : api.post<RoleRequest>(apiPath`/api/ops/role-requests/${id}/reject`, { reason: note }, idempotencyKey);
}

export const revokeRole = (api: SignedInApi, handle: string, reason: string, idempotencyKey: string) =>
  api.post<null>(apiPath`/api/ops/operators/${handle}/revoke`, { reason }, idempotencyKey);

/** WeChat Pay refunds that failed or were parked (docs/decisions/048-failed-wechat-refunds.md). */
export const refundsNeedingAHand = (api: SignedInApi) => api.get<OpsWechatRefund[]>("/api/ops/wechat-refunds");

export const returnRefundToWallet = (api: SignedInApi, outRefundNo: string, reason: string, idempotencyKey: string) =>
  api.post<OpsWechatRefund>(apiPath`/api/ops/wechat-refunds/${outRefundNo}/return-to-wallet`, { reason }, idempotencyKey);

/** A refund paid twice, settled (docs/decisions/060-refunds-paid-twice.md). */
export const settleRefundPaidTwice = (api: SignedInApi, outRefundNo: string, body: PaidTwiceSettleBody, idempotencyKey: string) =>
  api.post<OpsWechatRefund>(apiPath`/api/ops/wechat-refunds/${outRefundNo}/settle-paid-twice`, body, idempotencyKey);

/** Whoever asked takes back a settlement of a refund paid twice that waits (docs/decisions/072-large-settlements-need-a-second-operator.md). */
export const withdrawSettlement = (api: SignedInApi, id: string, idempotencyKey: string) =>
  api.post<OpsWechatRefund>(apiPath`/api/ops/wechat-refund-settlements/${id}/withdraw`, {}, idempotencyKey);

/** A second operator's decision on a settlement of a refund paid twice that waits (decision 072). */
export function decideSettlement(api: SignedInApi, id: string, decision: "approve" | "reject", note: string, idempotencyKey: string) {
  return decision === "approve"
    ? api.post<OpsWechatRefund>(apiPath`/api/ops/wechat-refund-settlements/${id}/approve`, note ? { note } : {}, idempotencyKey)
    : api.post<OpsWechatRefund>(apiPath`/api/ops/wechat-refund-settlements/${id}/reject`, { reason: note }, idempotencyKey);
}

/** A parked refund, settled as WeChat Pay, asked again, says it ended (docs/decisions/070-parked-refunds-settled.md). */
export const settleParkedRefund = (api: SignedInApi, outRefundNo: string, reason: string, idempotencyKey: string) =>
  api.post<OpsWechatRefund>(apiPath`/api/ops/wechat-refunds/${outRefundNo}/settle-parked`, { reason }, idempotencyKey);
