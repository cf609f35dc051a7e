/**
 * A person's page in the back office: who they are and the newest of everything they did,
 * read in one D1 batch of SELECTs (one round trip; a batch also reads one consistent state).
 * Each statement says which index serves it.
 */
import { personPageListSize, type PersonPage } from "#contract/ops-people";
import type { Ticket } from "#contract/support";
import { deviceLabel } from "../account/device-label";
import { walletAccountOf } from "../ledger/journal";
import { walletEntryPageQuery } from "../ledger/wallet-entries";
import { orderFromRow, type OrderRow } from "../orders/order-rows";
import {
  iso,
  isoOrNull,
  opsPaymentOf,
  opsPersonOf,
  ordersColumns,
  type PaymentRow,
  paymentColumns,
  type PersonRow,
  personColumns,
  personJoins,
  personRefOf,
} from "./ops-rows";

type TransferRow = {
  id: string;
  amount: number;
  note: string;
  created_at: number;
  from_id: string;
  from_handle: string;
  from_display_name: string;
  to_id: string;
  to_handle: string;
  to_display_name: string;
};

type TaskRow = {
  id: string;
  title: string;
  status: PersonPage["tasksPosted"][number]["status"];
  reward: number;
  slots: number;
  slots_taken: number;
  escrow_remaining: number;
  order_id: string;
  deadline: number;
  created_at: number;
};

type ClaimRow = {
  id: string;
  status: PersonPage["claims"][number]["status"];
  created_at: number;
  expires_at: number;
  submitted_at: number | null;
  decided_at: number | null;
  task_id: string;
  task_title: string;
  task_reward: number;
  poster_id: string;
  poster_handle: string;
  poster_display_name: string;
};

type TicketRow = {
  id: string;
  category: Ticket["category"];
  subject: string;
  status: Ticket["status"];
  order_id: string | null;
  created_at: number;
  updated_at: number;
};

type SessionRow = { created_at: number; last_used_at: number; ended_at: number | null; user_agent: string | null; place: string | null };

const transferColumns = `transfer.id, transfer.amount, transfer.note, transfer.created_at,
  sender.id AS from_id, sender.handle AS from_handle, sender.display_name AS from_display_name,
  recipient.id AS to_id, recipient.handle AS to_handle, recipient.display_name AS to_display_name
  FROM transfer JOIN user AS sender ON sender.id = transfer.from_user JOIN user AS recipient ON recipient.id = transfer.to_user`;

// The ids of the person's newest orders, whose payments the page shows.
const newestOrderIds = "SELECT id FROM orders WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2";

function transferLine(row: TransferRow): PersonPage["transfersSent"][number] {
  return {
    id: row.id,
    from: personRefOf(row.from_id, row.from_handle, row.from_display_name),
    to: personRefOf(row.to_id, row.to_handle, row.to_display_name),
    amount: row.amount,
    note: row.note,
    createdAt: iso(row.created_at),
  };
}

/** The person's page, or null when no person has that id. */
export async function personPage(
  db: D1Database,
  userId: string,
  liveAfter: number,
): Promise<Omit<PersonPage, "recoveryLinkRequests"> | null> {
  const limit = personPageListSize;
  const walletEntries = walletEntryPageQuery(db, { userId, account: walletAccountOf(userId), limit });
  const [person, entries, orders, payments, sent, received, tasks, claims, tickets, sessions] = await db.batch([
    // user's primary key; the wallet by account_user_wallet, the role by operator_role's key.
    db.prepare(`SELECT ${personColumns} FROM user ${personJoins} WHERE user.id = ?1`).bind(userId),
    // entry_account (see ledger/wallet-entries.ts).
    walletEntries.statement,
    // orders_user_newest (user_id, created_at DESC, id DESC).
    db
      .prepare(`SELECT ${ordersColumns} FROM orders WHERE orders.user_id = ?1 ORDER BY orders.created_at DESC, orders.id DESC LIMIT ?2`)
      .bind(userId, limit),
    // payment_order (order_id), for the same newest orders (orders_user_newest).
    db
      .prepare(
        `SELECT ${paymentColumns} FROM payment WHERE payment.order_id IN (${newestOrderIds}) ORDER BY payment.created_at, payment.id`,
      )
      .bind(userId, limit),
    // transfer_from (from_user, created_at).
    db
      .prepare(`SELECT ${transferColumns} WHERE transfer.from_user = ?1 ORDER BY transfer.created_at DESC, transfer.id DESC LIMIT ?2`)
      .bind(userId, limit),
    // transfer_to (to_user, created_at).
    db
      .prepare(`SELECT ${transferColumns} WHERE transfer.to_user = ?1 ORDER BY transfer.created_at DESC, transfer.id DESC LIMIT ?2`)
      .bind(userId, limit),
    // task_poster (poster_id, created_at DESC).
    db
      .prepare(
        `SELECT id, title, status, reward, slots, slots_taken, escrow_remaining, order_id, deadline, created_at
         FROM task WHERE poster_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2`,
      )
      .bind(userId, limit),
    // claim_worker (worker_id, created_at DESC); the task and its poster by their keys.
    db
      .prepare(
        `SELECT claim.id, CASE WHEN claim.withdrawn_at IS NULL THEN claim.status ELSE 'withdrawn' END AS status, claim.created_at, claim.expires_at, claim.submitted_at, claim.decided_at,
           task.id AS task_id, task.title AS task_title, task.reward AS task_reward,
           poster.id AS poster_id, poster.handle AS poster_handle, poster.display_name AS poster_display_name
         FROM claim JOIN task ON task.id = claim.task_id JOIN user AS poster ON poster.id = task.poster_id
         WHERE claim.worker_id = ?1 ORDER BY claim.created_at DESC, claim.id DESC LIMIT ?2`,
      )
      .bind(userId, limit),
    // ticket_user (user_id, updated_at DESC): the tickets with the latest activity first.
    db
      .prepare(
        `SELECT id, category, subject, status, order_id, created_at, updated_at
         FROM ticket WHERE user_id = ?1 ORDER BY updated_at DESC, id DESC LIMIT ?2`,
      )
      .bind(userId, limit),
    // session_user (user_id). Never the token's hash: it is all a session's bearer needs to be found.
    db
      .prepare(
        "SELECT created_at, last_used_at, ended_at, user_agent, place FROM session WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2",
      )
      .bind(userId, limit),
  ]);
  const personRow = person?.results[0] as PersonRow | undefined;
  if (!personRow) return null;
  const rows = <T>(result: D1Result | undefined) => (result?.results ?? []) as T[];
  const paymentsByOrder = new Map<string, PaymentRow[]>();
  for (const payment of rows<PaymentRow>(payments))
    paymentsByOrder.set(payment.order_id, [...(paymentsByOrder.get(payment.order_id) ?? []), payment]);
  return {
    person: opsPersonOf(personRow),
    walletEntries: walletEntries.pageOf(rows(entries)).entries,
    orders: rows<OrderRow>(orders).map((order) => ({
      ...orderFromRow(order),
      payments: (paymentsByOrder.get(order.id) ?? []).map(opsPaymentOf),
    })),
    transfersSent: rows<TransferRow>(sent).map(transferLine),
    transfersReceived: rows<TransferRow>(received).map(transferLine),
    tasksPosted: rows<TaskRow>(tasks).map((task) => ({
      id: task.id,
      title: task.title,
      status: task.status,
      reward: task.reward,
      slots: task.slots,
      slotsTaken: task.slots_taken,
      escrowRemaining: task.escrow_remaining,
      orderId: task.order_id,
      deadline: iso(task.deadline),
      createdAt: iso(task.created_at),
    })),
    claims: rows<ClaimRow>(claims).map((claim) => ({
      id: claim.id,
      task: {
        id: claim.task_id,
        title: claim.task_title,
        reward: claim.task_reward,
        poster: personRefOf(claim.poster_id, claim.poster_handle, claim.poster_display_name),
      },
      status: claim.status,
      createdAt: iso(claim.created_at),
      expiresAt: iso(claim.expires_at),
      submittedAt: isoOrNull(claim.submitted_at),
      decidedAt: isoOrNull(claim.decided_at),
    })),
    tickets: rows<TicketRow>(tickets).map((ticket) => ({
      id: ticket.id,
      category: ticket.category,
      subject: ticket.subject,
      status: ticket.status,
      orderId: ticket.order_id,
      createdAt: iso(ticket.created_at),
      updatedAt: iso(ticket.updated_at),
    })),
    sessions: rows<SessionRow>(sessions).map((session) => ({
      device: deviceLabel(session.user_agent),
      place: session.place,
      createdAt: iso(session.created_at),
      lastUsedAt: iso(session.last_used_at),
      endedAt: isoOrNull(session.ended_at),
      live: session.ended_at === null && session.last_used_at > liveAfter,
    })),
  };
}
