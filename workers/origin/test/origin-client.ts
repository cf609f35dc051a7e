import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { setPasswordStatement } from "../src/account/account-password";
import { hashToken } from "../src/auth/bearer-token";
import { hashPassword } from "../src/auth/passwords";
import { createOriginApp } from "../src/app";
import { ledgerViolations } from "../src/ledger/invariants";
import { walletAccountOf } from "../src/ledger/journal";

type CallInit = { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string; db?: D1Database; env?: Partial<Env> };

/** An origin app on a clock the test moves, and helpers to call it like a client. */
export function testOrigin(start = Date.parse("2026-11-01T00:00:00Z")) {
  let now = start;
  // Loaded on the first call: the routers are imported on demand (src/routers.ts).
  const app = createOriginApp({ clock: { now: () => now } });
  const call = async (path: string, init: CallInit = {}) =>
    (await app).request(
      path,
      {
        method: init.method ?? "POST",
        headers: { "Content-Type": "application/json", ...init.headers },
        body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      },
      { ...env, ...init.env, ...(init.db ? { DB: init.db } : {}) },
    );
  return {
    call,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

export type TestOrigin = ReturnType<typeof testOrigin>;

const tables = [
  // WeChat Pay's refunds refer to payments and journal transactions: they go first.
  "wechat_refund",
  "wechat_notification",
  "sign_in_link",
  "recovery_link",
  "recovery_code",
  "ledger_check_run",
  "wechat_ask",
  "passkey",
  "webauthn_challenge",
  "wechat_sign_in",
  "wechat_payer",
  "escrow_release",
  "claim_capture",
  "claim",
  "task",
  "ticket_message",
  "ticket",
  "payment",
  "order_event",
  "orders",
  "idempotency",
  "code_failure",
  "code_redemption",
  "prepaid_code",
  "code_batch",
  "transfer_daily",
  "transfer",
  "session",
  "known_device",
  "sign_in_failure",
  "sign_in_lock",
  "contact_attempt",
  "limit_counter",
  "operator_role",
];

/**
 * A clean database for each test. Ledger rows cannot be deleted (that is the point of
 * the triggers), so the ledger is rebuilt from its migration instead.
 */
/** Empties a table whose trigger `trigger` keeps its rows, and puts the trigger back, raising `message` as before. */
function emptiedKeeping(table: string, trigger: string, message: string): D1PreparedStatement[] {
  return [
    env.DB.prepare(`DROP TRIGGER IF EXISTS ${trigger}`),
    env.DB.prepare(`DELETE FROM ${table}`),
    env.DB.prepare(`CREATE TRIGGER ${trigger} BEFORE DELETE ON ${table} BEGIN SELECT RAISE(ABORT, '${message}'); END`),
  ];
}

export async function resetDatabase(): Promise<void> {
  await env.DB.batch([
    // Operators' refunds are kept too (no deletes); WeChat Pay's refunds refer to them.
    ...emptiedKeeping("wechat_refund_settlement", "wechat_refund_settlement_kept", "refund_settlement: settlements are kept"),
    // Settlement requests are kept; the settlements (deleted above) refer to them.
    ...emptiedKeeping("wechat_refund_settlement_request", "wechat_refund_settlement_request_kept", "settlement request: requests are kept"),
    ...emptiedKeeping("wechat_refund_other_amount", "wechat_refund_other_amount_kept", "refund_other_amount: settlements are kept"),
    ...emptiedKeeping("wechat_refund_return", "wechat_refund_return_kept", "refund_return: returns are kept"),
    env.DB.prepare("DELETE FROM wechat_refund"),
    ...emptiedKeeping("refund_request", "refund_request_kept", "refund: refunds are kept"),
    ...tables.map((table) => env.DB.prepare(`DELETE FROM ${table}`)),
    // Recovery link requests are kept; their links (deleted above) refer to them.
    ...emptiedKeeping("recovery_link_request", "recovery_link_request_kept", "recovery link request: requests are kept"),
    // The history of grants is append-only; it refers to users.
    ...emptiedKeeping("operator_grant", "operator_grant_no_delete", "operator grant: the history of grants is append-only"),
    // Role requests are kept; the roles (deleted above) refer to them.
    ...emptiedKeeping("role_request", "role_request_kept", "role request: requests are kept"),
    // Code batch requests are kept too; their batches (deleted above) refer to them.
    ...emptiedKeeping("code_batch_request", "code_batch_request_kept", "code request: requests are kept"),
    env.DB.prepare("DROP TRIGGER IF EXISTS entry_immutable_delete"),
    env.DB.prepare("DROP TRIGGER IF EXISTS tx_immutable_delete"),
    env.DB.prepare("DROP TRIGGER IF EXISTS seal_immutable_delete"),
    env.DB.prepare("DELETE FROM tx_seal"),
    env.DB.prepare("DELETE FROM daily_volume"),
    env.DB.prepare("DELETE FROM entry"),
    env.DB.prepare("DELETE FROM journal_tx"),
    env.DB.prepare(
      "CREATE TRIGGER entry_immutable_delete BEFORE DELETE ON entry BEGIN SELECT RAISE(ABORT, 'ledger: entries are immutable'); END",
    ),
    env.DB.prepare(
      "CREATE TRIGGER tx_immutable_delete BEFORE DELETE ON journal_tx BEGIN SELECT RAISE(ABORT, 'ledger: transactions are immutable'); END",
    ),
    env.DB.prepare(
      "CREATE TRIGGER seal_immutable_delete BEFORE DELETE ON tx_seal BEGIN SELECT RAISE(ABORT, 'ledger: seals are immutable'); END",
    ),
    // The audit trail is append-only too: rebuilt the same way.
    ...emptiedKeeping("audit_log", "audit_log_no_delete", "audit: rows are append-only"),
    env.DB.prepare("DELETE FROM account WHERE kind <> 'world'"),
    env.DB.prepare("UPDATE account SET available = 0, held = 0 WHERE kind = 'world'"),
    env.DB.prepare("DELETE FROM user"),
  ]);
}

/** A user with a wallet and a live session, written directly (the fixture need not sign in). */
export async function seedUser(handle: string, now = Date.now()): Promise<{ id: string; token: string; auth: Record<string, string> }> {
  const id = `usr_${handle}`;
  const token = `tok_${handle}_${"x".repeat(24)}`.slice(0, 40);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES (?1, ?2, ?3, ?4)").bind(
      id,
      handle,
      `Name of ${handle}`,
      now,
    ),
    env.DB.prepare("INSERT INTO account (id, owner_id, kind) VALUES (?1, ?2, 'user')").bind(walletAccountOf(id), id),
    env.DB.prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at) VALUES (?1, ?2, ?3, ?3)").bind(
      await hashToken(token),
      id,
      now,
    ),
  ]);
  return { id, token, auth: { Authorization: `Bearer ${token}` } };
}

/** The password a fixture user is given by `givePassword` (hashed with few iterations: tests need speed, not strength). */
export const fixturePassword = "correct horse battery";

/** Gives a seeded user a password, written directly. */
export async function givePassword(userId: string, password = fixturePassword): Promise<void> {
  await setPasswordStatement(env.DB, userId, await hashPassword(password, 1_000)).run();
}

/** A user holding an operator role (docs/decisions/012-operators-and-audit.md), granted directly. */
export async function seedOperator(
  handle: string,
  role: "support" | "finance" | "admin",
  now = Date.now(),
): Promise<Awaited<ReturnType<typeof seedUser>>> {
  const person = await seedUser(handle, now);
  await env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, ?2, 'cli', ?3)")
    .bind(person.id, role, now)
    .run();
  return person;
}

export const operatorAuth = { Authorization: `Bearer ${env.ADMIN_TOKEN}` };

/** What issuing and redeeming codes needs of an origin (this file's, or the WeChat Pay tests'). */
type CodeCaller = {
  call: (path: string, init: { body?: unknown; headers?: Record<string, string> }) => Promise<Response> | Response;
  now: () => number;
};

/** Issues codes through the operator API and answers them as typed. */
export async function issueCodes(origin: CodeCaller, value: number, count = 1, expiresInMs = 86_400_000): Promise<string[]> {
  const response = await origin.call("/api/admin/codes", {
    body: { value, count, expiresAt: new Date(origin.now() + expiresInMs).toISOString() },
    headers: operatorAuth,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { codes: string[] } }).data.codes;
}

export async function balanceOf(userId: string): Promise<{ available: number; held: number }> {
  const row = await env.DB.prepare("SELECT available, held FROM account WHERE id = ?1")
    .bind(walletAccountOf(userId))
    .first<{ available: number; held: number }>();
  return row ?? { available: NaN, held: NaN };
}

/** Every test that moves money ends here: the ledger's invariants hold. */
export async function expectLedgerWhole(): Promise<void> {
  expect(await ledgerViolations(env.DB)).toEqual([]);
}

/** Money into a user's wallet the way it really arrives: a code issued, then redeemed. */
export async function fundWallet(origin: CodeCaller, user: { auth: Record<string, string> }, value: number): Promise<void> {
  const [code = ""] = await issueCodes(origin, value);
  const response = await origin.call("/api/codes/redeem", {
    body: { code },
    headers: { ...user.auth, "Idempotency-Key": `fund-${crypto.randomUUID()}` },
  });
  expect(response.status).toBe(201);
}

/**
 * Tasks written straight to the database, open, a second apart and oldest first, each with its
 * budget order: for lists longer than a test could post through the API (its daily limit).
 * Their escrow is not held, so the ledger check is not for them.
 */
export async function seedOpenTasks(origin: TestOrigin, posterId: string, count: number): Promise<string[]> {
  const first = origin.now() - count * 1000;
  const ids = Array.from({ length: count }, () => `tsk_${crypto.randomUUID()}`);
  await env.DB.batch(
    ids.flatMap((id, index) => {
      const orderId = `ord_${crypto.randomUUID()}`;
      const at = first + index * 1000;
      return [
        env.DB.prepare(
          "INSERT INTO orders (id, user_id, kind, amount, description, created_at, expires_at) VALUES (?1, ?2, 'task_budget', 1000, 'A budget', ?3, ?4)",
        ).bind(orderId, posterId, at, at + 30 * 60_000),
        env.DB.prepare(
          `INSERT INTO task (id, poster_id, title, description, reward, slots, deadline, status, order_id, created_at)
           VALUES (?1, ?2, ?3, 'Do the thing.', 1000, 1, ?4, 'open', ?5, ?6)`,
        ).bind(id, posterId, `Task ${index}`, origin.now() + 48 * 60 * 60_000, orderId, at),
      ];
    }),
  );
  return ids;
}

/** An open task: its budget funded, posted and paid from the poster's wallet. */
export async function openPaidTask(
  origin: TestOrigin,
  poster: { auth: Record<string, string> },
  { reward = 1_000, slots = 2, deadlineInMs = 48 * 60 * 60 * 1000 } = {},
): Promise<import("#contract/tasks").Task> {
  await fundWallet(origin, poster, reward * slots);
  const posted = await origin.call("/api/tasks", {
    body: {
      title: "A test task",
      description: "Do the thing and describe it.",
      reward,
      slots,
      deadline: new Date(origin.now() + deadlineInMs).toISOString(),
    },
    headers: { ...poster.auth, "Idempotency-Key": `task-${crypto.randomUUID()}` },
  });
  expect(posted.status).toBe(201);
  const { task, order } = ((await posted.json()) as { data: { task: import("#contract/tasks").Task; order: { id: string } } }).data;
  const paid = await origin.call(`/api/orders/${order.id}/pay`, {
    body: { method: "wallet" },
    headers: { ...poster.auth, "Idempotency-Key": `pay-${crypto.randomUUID()}` },
  });
  expect(paid.status).toBe(201);
  return task;
}

/**
 * The database as a client meets it when an answer is lost: a batch that writes commits,
 * and then the connection drops (D1's ambiguous failure), so the caller hears an error.
 * Batches that only read answer as usual.
 */
export function answerLostAfterCommit(db: D1Database = env.DB): D1Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "batch") return Reflect.get(target, property, receiver);
      return async (statements: D1PreparedStatement[]) => {
        const results = await target.batch(statements);
        if (results.some((result) => result.meta.changed_db)) throw new Error("D1_ERROR: Network connection lost.");
        return results;
      };
    },
  });
}

/**
 * The database with something of the test's done just before its `nth` batch (1 is the
 * first): another request's write landing between a handler's read and its own batch.
 */
export function beforeBatch(nth: number, happen: () => unknown, db: D1Database = env.DB): D1Database {
  let batches = 0;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "batch") return Reflect.get(target, property, receiver);
      return async (statements: D1PreparedStatement[]) => {
        batches += 1;
        if (batches === nth) await happen();
        return target.batch(statements);
      };
    },
  });
}

/** The database, counting its round trips: each batch, and each statement run on its own. */
export function countingRoundTrips(db: D1Database = env.DB): { db: D1Database; trips: () => number } {
  let trips = 0;
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => counted(target.bind(...values));
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (property === "first" || property === "run" || property === "all" || property === "raw") trips += 1;
        return value.bind(target);
      },
    });
    unwrapped.set(proxy, statement);
    return proxy;
  };
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => counted(target.prepare(sql));
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          trips += 1;
          return target.batch(statements.map((statement) => unwrapped.get(statement) ?? statement));
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: proxy, trips: () => trips };
}
