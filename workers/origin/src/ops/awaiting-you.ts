/**
 * What waits for an operator's decision, counted for the back office's navigation
 * (docs/decisions/066-what-waits-for-you.md): the requests that are theirs to decide by the
 * lists' own rules (`yoursToDecide`) and can still be approved — a refund, the settlement of
 * one paid twice (decision 072), a code batch before its
 * expiry, a recovery link within its day, a role request that has not closed. One that can
 * only be rejected lapses by itself, and is not counted.
 */
import type { AwaitingYou } from "#contract/ops";
import { refundViewerDecidesSql } from "../refunds/refund-rows";
import { settlementRequestsJoined, settlementViewerDecidesSql } from "../refunds/settlement-requests";
import { codeBatchViewerDecidesSql } from "./code-batch-requests";
import { recoveryLinkViewerDecidesSql } from "./recovery-link-requests";
import { roleRequestApprovableSql, roleViewerDecidesSql } from "./role-requests";

// The requests' tables are small: each holds what operators asked for by hand.
const awaitingSql = `SELECT
  (SELECT count(*) FROM refund_request JOIN orders ON orders.id = refund_request.order_id
     WHERE ${refundViewerDecidesSql("?1")}) AS refunds,
  (SELECT count(*) FROM ${settlementRequestsJoined} WHERE ${settlementViewerDecidesSql("?1")}) AS refund_settlements,
  (SELECT count(*) FROM code_batch_request
     WHERE code_batch_request.expires_at > ?2 AND ${codeBatchViewerDecidesSql("?1")}) AS code_batches,
  (SELECT count(*) FROM recovery_link_request AS r WHERE r.open_until > ?2 AND ${recoveryLinkViewerDecidesSql("?1")}) AS recovery_links,
  (SELECT count(*) FROM role_request AS r WHERE ${roleRequestApprovableSql("?2")} AND ${roleViewerDecidesSql("?1")}) AS roles`;

type AwaitingRow = { refunds: number; refund_settlements: number; code_batches: number; recovery_links: number; roles: number };

export async function awaitingYou(db: D1Database, operatorId: string, now: number): Promise<AwaitingYou> {
  const row = await db.prepare(awaitingSql).bind(operatorId, now).first<AwaitingRow>();
  return {
    refunds: row?.refunds ?? 0,
    refundSettlements: row?.refund_settlements ?? 0,
    codeBatches: row?.code_batches ?? 0,
    recoveryLinks: row?.recovery_links ?? 0,
    roles: row?.roles ?? 0,
  };
}
