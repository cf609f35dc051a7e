/**
 * WeChat Pay payment rows: stored before WeChat Pay is asked, then told what WeChat Pay
 * says of them, and when the cron should ask again.
 */
import type { WechatPayFlow } from "#contract/payments";

type PaymentStatus = "pending" | "succeeded" | "failed" | "refunded";
export type RemoteState = "creating" | "open" | "paid" | "closed" | "absent" | "refused" | "mismatch";

export type WechatPaymentRow = {
  id: string;
  order_id: string;
  user_id: string;
  order_kind: "recharge" | "task_budget";
  order_status: "pending" | "paid" | "closed";
  order_expires_at: number;
  description: string;
  amount: number;
  status: PaymentStatus;
  out_trade_no: string;
  flow: WechatPayFlow;
  openid: string | null;
  client_ip: string | null;
  transaction_id: string | null;
  remote_state: RemoteState | null;
  next_check_at: number | null;
  checks: number;
  created_at: number;
  /** When a create was last asked of WeChat Pay for it (migration 0029); null before. */
  create_asked_at: number | null;
};

const paymentSelect = `
SELECT payment.id, payment.order_id, orders.user_id, orders.kind AS order_kind, orders.status AS order_status,
       orders.expires_at AS order_expires_at, orders.description, payment.amount, payment.status, payment.out_trade_no,
       payment.flow, payment.openid, payment.client_ip, payment.transaction_id, payment.remote_state,
       payment.next_check_at, payment.checks, payment.created_at, payment.create_asked_at
FROM payment JOIN orders ON orders.id = payment.order_id`;

export function findWechatPayment(db: D1Database, outTradeNo: string): Promise<WechatPaymentRow | null> {
  return db
    .prepare(`${paymentSelect} WHERE payment.out_trade_no = ?1 AND payment.method = 'wechat'`)
    .bind(outTradeNo)
    .first<WechatPaymentRow>();
}

export function findPendingWechatPayment(db: D1Database, orderId: string): Promise<WechatPaymentRow | null> {
  return db
    .prepare(`${paymentSelect} WHERE payment.order_id = ?1 AND payment.method = 'wechat' AND payment.status = 'pending'`)
    .bind(orderId)
    .first<WechatPaymentRow>();
}

/** Pending WeChat Pay payments the cron should ask WeChat Pay about now, oldest first. */
export async function duePendingPayments(
  db: D1Database,
  now: number,
  { limit, orderId }: { limit: number; orderId?: string },
): Promise<WechatPaymentRow[]> {
  const rows = await db
    .prepare(
      `${paymentSelect}
       WHERE payment.method = 'wechat' AND payment.status = 'pending' AND payment.next_check_at <= ?1 AND (?2 IS NULL OR payment.order_id = ?2)
       ORDER BY payment.next_check_at LIMIT ?3`,
    )
    .bind(now, orderId ?? null, limit)
    .all<WechatPaymentRow>();
  return rows.results;
}

/** The first query of a payment nobody told us about: a minute after it was created (issue #5). */
const firstCheckDelayMs = 60_000;
const longestCheckDelayMs = 10 * 60_000;

/** 1, 2, 4, 8 minutes … at most 10 minutes between the cron's questions about one payment. */
function checkDelayMs(checks: number): number {
  return Math.min(firstCheckDelayMs * 2 ** Math.min(checks, 10), longestCheckDelayMs);
}

/** `[0-9A-Za-z]`, 32 characters: WeChat Pay's out_trade_no allows 6–32 of `[0-9A-Za-z_-|*]`. */
export function newOutTradeNo(): string {
  return `PD${crypto.randomUUID().replaceAll("-", "").slice(0, 30)}`;
}

export function insertWechatPayment(
  db: D1Database,
  p: {
    id: string;
    orderId: string;
    amount: number;
    outTradeNo: string;
    flow: WechatPayFlow;
    openid: string | null;
    clientIp: string | null;
    now: number;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payment (id, order_id, method, status, amount, out_trade_no, flow, openid, client_ip, remote_state, next_check_at, checks, created_at, updated_at, create_asked_at)
       VALUES (?1, ?2, 'wechat', 'pending', ?3, ?4, ?5, ?6, ?7, 'creating', ?8, 0, ?9, ?9, ?9)`,
    )
    .bind(p.id, p.orderId, p.amount, p.outTradeNo, p.flow, p.openid, p.clientIp, p.now + firstCheckDelayMs, p.now);
}

/**
 * How long a create asked of WeChat Pay may still land there: the client's time-out (8 s,
 * factory.ts) with room to spare. Until then WeChat Pay's ORDER_NOT_EXIST proves nothing
 * (docs/decisions/004-wechat-pay.md).
 */
const createInFlightMs = 30_000;

/**
 * A payment WeChat Pay has not yet said it holds (still `creating`), whose create was asked
 * within `createInFlightMs`. One it holds (`open`) can be closed whatever is in flight: a
 * create landing after the close is refused as ORDER_CLOSED.
 */
export function isBeingCreated(payment: WechatPaymentRow, now: number): boolean {
  return payment.remote_state === "creating" && payment.create_asked_at !== null && now - payment.create_asked_at < createInFlightMs;
}

/**
 * Notes a create about to be asked of WeChat Pay again, while the payment is pending; false
 * when it is not any more (given up meanwhile: no create may be asked for it).
 */
export async function markCreateAsked(db: D1Database, paymentId: string, now: number): Promise<boolean> {
  const marked = await db
    .prepare("UPDATE payment SET create_asked_at = ?1 WHERE id = ?2 AND status = 'pending'")
    .bind(now, paymentId)
    .run();
  return marked.meta.changes === 1;
}

/** What we now know of the order at WeChat Pay, for a payment still pending. */
export function noteRemoteState(db: D1Database, paymentId: string, state: RemoteState, now: number): D1PreparedStatement {
  return db
    .prepare("UPDATE payment SET remote_state = ?1, updated_at = ?2 WHERE id = ?3 AND status = 'pending'")
    .bind(state, now, paymentId);
}

/**
 * A pending payment WeChat Pay says it never held (ORDER_NOT_EXIST), given up — unless a
 * create was asked since it was read, which may still land: false then, and nothing changes.
 */
export async function markPaymentAbsent(db: D1Database, payment: WechatPaymentRow, now: number): Promise<boolean> {
  const marked = await db
    .prepare(
      `UPDATE payment SET status = 'failed', remote_state = 'absent', next_check_at = NULL, updated_at = ?1
       WHERE id = ?2 AND status = 'pending' AND create_asked_at IS ?3`,
    )
    .bind(now, payment.id, payment.create_asked_at)
    .run();
  return marked.meta.changes === 1;
}

/** A pending payment that can no longer be paid at WeChat Pay (closed there, or never created). */
export async function markPaymentFailed(db: D1Database, paymentId: string, state: RemoteState, now: number): Promise<void> {
  await db
    .prepare(
      "UPDATE payment SET status = 'failed', remote_state = ?1, next_check_at = NULL, updated_at = ?2 WHERE id = ?3 AND status = 'pending'",
    )
    .bind(state, now, paymentId)
    .run();
}

/** Asks again once a create on its way can no longer land (`isBeingCreated`). */
export async function checkAfterCreate(db: D1Database, payment: WechatPaymentRow, now: number): Promise<void> {
  await db
    .prepare("UPDATE payment SET next_check_at = ?1, updated_at = ?2 WHERE id = ?3 AND status = 'pending'")
    .bind(Math.max(now, (payment.create_asked_at ?? now) + createInFlightMs), now, payment.id)
    .run();
}

/** Asks again later: 1, 2, 4 … 10 minutes. */
export async function checkLater(db: D1Database, payment: WechatPaymentRow, now: number, state?: RemoteState): Promise<void> {
  await db
    .prepare(
      "UPDATE payment SET next_check_at = ?1, checks = checks + 1, remote_state = coalesce(?2, remote_state), updated_at = ?3 WHERE id = ?4 AND status = 'pending'",
    )
    .bind(now + checkDelayMs(payment.checks + 1), state ?? null, now, payment.id)
    .run();
}
