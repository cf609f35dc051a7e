/** Rows the back office reads, and the shapes its answers give them (contract/ops-people.ts, contract/ops-orders.ts). */
import type { OpsPayment, PersonRef } from "#contract/ops-orders";
import type { OpsPerson } from "#contract/ops-people";
import { orderColumns } from "../orders/order-rows";
import type { OperatorRole } from "./roles";

export const iso = (at: number) => new Date(at).toISOString();
export const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

/** The columns `orderFromRow` reads, taken from `orders` by name, for queries that join it. */
export const ordersColumns = orderColumns
  .split(", ")
  .map((column) => `orders.${column}`)
  .join(", ");

/** A person with their wallet's balances and their operator role: `FROM user` then `personJoins`. */
export const personColumns = `user.id, user.handle, user.display_name, user.created_at,
  coalesce(account.available, 0) AS available, coalesce(account.held, 0) AS held, operator_role.role, user.locked_at`;
export const personJoins = `LEFT JOIN account ON account.owner_id = user.id AND account.kind = 'user'
  LEFT JOIN operator_role ON operator_role.user_id = user.id`;

export type PersonRow = {
  id: string;
  handle: string;
  display_name: string;
  created_at: number;
  available: number;
  held: number;
  role: OperatorRole | null;
  locked_at: number | null;
};

export function opsPersonOf(row: PersonRow): OpsPerson {
  return {
    id: row.id,
    handle: row.handle,
    displayName: row.display_name,
    createdAt: iso(row.created_at),
    balances: { available: row.available, held: row.held },
    operatorRole: row.role,
    lockedAt: isoOrNull(row.locked_at),
  };
}

export const personRefOf = (id: string, handle: string, displayName: string): PersonRef => ({ id, handle, displayName });

export const paymentColumns = `payment.id, payment.order_id, payment.method, payment.flow, payment.status, payment.amount,
  payment.out_trade_no, payment.transaction_id, payment.remote_state, payment.checks, payment.created_at, payment.updated_at`;

export type PaymentRow = {
  id: string;
  order_id: string;
  method: OpsPayment["method"];
  flow: OpsPayment["flow"];
  status: OpsPayment["status"];
  amount: number;
  out_trade_no: string | null;
  transaction_id: string | null;
  remote_state: OpsPayment["remoteState"];
  checks: number;
  created_at: number;
  updated_at: number;
};

export function opsPaymentOf(row: PaymentRow): OpsPayment {
  return {
    id: row.id,
    method: row.method,
    flow: row.flow,
    status: row.status,
    amount: row.amount,
    outTradeNo: row.out_trade_no,
    transactionId: row.transaction_id,
    remoteState: row.remote_state,
    checks: row.checks,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
