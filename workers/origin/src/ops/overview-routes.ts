/**
 * The back office's overview (docs/decisions/017-back-office-overview.md): money right now,
 * the ledger's latest check, 30 days of volume, tickets by age, what is pending. One D1 batch
 * of reads; the ledger is checked afresh only when no check ran within the hour.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { overviewSchema } from "#contract/ops-overview";
import { validationHook } from "../http/validation";
import { needsAHand } from "../refunds/wechat-refund-rows";
import { chinaDay } from "../transfers/china-day";
import { checkRunOf, latestCheckStatement, ledgerCheckStaleMs, runLedgerCheck } from "../ledger/recorded-check";
import type { OriginEnv } from "../origin-env";
import { operatorWith } from "./operator-access";
import { forbiddenUnless, notAnOperator } from "./route-answers";

const overview = createRoute({
  method: "get",
  path: "/",
  summary: "Money right now, the ledger's check, 30 days of volume, tickets by age and what is pending (support and up)",
  security: operatorSession,
  responses: {
    200: jsonContent(successEnvelope(overviewSchema), "The overview"),
    403: forbiddenUnless("readPeople: support and up"),
    404: notAnOperator,
  },
});

const dayMs = 24 * 60 * 60 * 1000;

export const overviewRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
overviewRoutes.use("*", operatorWith("readPeople"));

overviewRoutes.openapi(overview, async (c) => {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const [money, volume, tickets, pending, latestCheck] = await db.batch([
    // account_user_wallet and the primary key; a sum over every wallet (one row each).
    db.prepare(
      `SELECT
         (SELECT coalesce(sum(available), 0) FROM account WHERE kind = 'user') AS wallets_available,
         (SELECT coalesce(sum(held), 0) FROM account WHERE kind = 'user') AS wallets_held,
         (SELECT coalesce(sum(escrow_remaining), 0) FROM task) AS task_escrow,
         (SELECT coalesce(sum(available + held), 0) FROM account WHERE id = 'acc_wechat_clearing') AS wechat_clearing,
         (SELECT coalesce(sum(available + held), 0) FROM account WHERE id = 'acc_world') AS world,
         (SELECT coalesce(sum(available + held), 0) FROM account WHERE id = 'acc_paydesk_covered') AS paydesk_covered`,
    ),
    // daily_volume's primary key (day, kind): kept as each transaction is sealed (migration 0027).
    db
      .prepare("SELECT day, kind, amount, transactions FROM daily_volume WHERE day >= ?1 ORDER BY day, kind")
      .bind(chinaDay(now - 30 * dayMs)),
    // ticket_status (status, updated_at).
    db
      .prepare(
        `SELECT
           count(CASE WHEN updated_at > ?1 - ?2 THEN 1 END) AS under_a_day,
           count(CASE WHEN updated_at <= ?1 - ?2 AND updated_at > ?1 - 3 * ?2 THEN 1 END) AS one_to_three_days,
           count(CASE WHEN updated_at <= ?1 - 3 * ?2 THEN 1 END) AS older
         FROM ticket WHERE status = 'open'`,
      )
      .bind(now, dayMs),
    // payment_wechat_due, wechat_refund_due, wechat_refund_needs_a_hand and refund_request_waiting serve them;
    // the requests' own tables are small (each holds what operators asked for by hand).
    db
      .prepare(
        `SELECT
         (SELECT count(*) FROM payment WHERE method = 'wechat' AND status = 'pending') AS wechat_payments,
         (SELECT count(*) FROM wechat_refund WHERE status IN ('due', 'processing') AND parked_at IS NULL) AS wechat_refunds,
         (SELECT count(*) FROM wechat_refund AS refund
            LEFT JOIN wechat_refund_return AS returned ON returned.out_refund_no = refund.out_refund_no
            WHERE ${needsAHand}) AS wechat_refunds_stuck,
         (SELECT count(*) FROM refund_request WHERE status = 'awaiting_approval') AS refund_approvals,
         (SELECT count(*) FROM code_batch_request WHERE status = 'awaiting_approval' AND expires_at > ?1) AS code_batch_approvals,
         (SELECT count(*) FROM recovery_link_request WHERE status = 'awaiting_approval' AND open_until > ?1) AS recovery_link_approvals,
         (SELECT count(*) FROM role_request WHERE status = 'awaiting_approval' AND open_until > ?1) AS role_approvals`,
      )
      .bind(now),
    // The latest recorded check: the cron's, every ten minutes (ledger/recorded-check.ts).
    latestCheckStatement(db),
  ]);
  let check = checkRunOf(latestCheck?.results[0] as { checked_at: number; violations: number } | undefined);
  if (!check || check.checkedAt < now - ledgerCheckStaleMs) {
    check = { checkedAt: now, violations: (await runLedgerCheck(db, now, "overview")).length };
  }
  const m = money?.results[0] as Record<string, number>;
  const t = tickets?.results[0] as Record<string, number>;
  const p = pending?.results[0] as Record<string, number>;
  return c.json(
    {
      code: "SUCCESS" as const,
      data: {
        money: {
          walletsAvailable: m.wallets_available ?? 0,
          walletsHeld: m.wallets_held ?? 0,
          taskEscrow: m.task_escrow ?? 0,
          wechatClearing: m.wechat_clearing ?? 0,
          world: m.world ?? 0,
          // The covered account goes below zero by what Paydesk bore: shown as what it bore.
          paydeskCovered: -(m.paydesk_covered ?? 0),
        },
        ledger: { violations: check.violations, checkedAt: new Date(check.checkedAt).toISOString() },
        dailyVolume: ((volume?.results ?? []) as { day: string; kind: string; amount: number; transactions: number }[]).map((row) => ({
          day: row.day,
          kind: row.kind,
          amount: row.amount,
          transactions: row.transactions,
        })),
        openTickets: { underADay: t.under_a_day ?? 0, oneToThreeDays: t.one_to_three_days ?? 0, olderThanThreeDays: t.older ?? 0 },
        pending: {
          wechatPayments: p.wechat_payments ?? 0,
          wechatRefunds: p.wechat_refunds ?? 0,
          wechatRefundsStuck: p.wechat_refunds_stuck ?? 0,
          refundApprovals: p.refund_approvals ?? 0,
          codeBatchApprovals: p.code_batch_approvals ?? 0,
          recoveryLinkApprovals: p.recovery_link_approvals ?? 0,
          roleApprovals: p.role_approvals ?? 0,
        },
      },
    },
    200,
  );
});
