import { approvedRecoveryLink, recoveryLinkToken } from "../../test/recovery-links";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  balanceOf,
  expectLedgerWhole,
  fundWallet,
  issueCodes,
  resetDatabase,
  seedOperator,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import type { OperatorRole } from "./roles";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;

const operator = (handle: string, role: OperatorRole) => seedOperator(handle, role, origin.now());

const keyed = (auth: Record<string, string>, key = `acc-${crypto.randomUUID()}`) => ({ ...auth, "Idempotency-Key": key });
const act = (by: Person, person: Person, action: "lock" | "unlock" | "sign-out-everywhere", key?: string) =>
  origin.call(`/api/ops/people/${person.id}/${action}`, { body: { reason: "Reported stolen phone." }, headers: keyed(by.auth, key) });
const codeOf = async (answer: Response) => ((await answer.json()) as { code: string }).code;
const auditActions = async () =>
  (await env.DB.prepare("SELECT action, object_id, actor_id, reason FROM audit_log ORDER BY id").all()).results;

const transfer = (from: Person, toHandle: string, amount = 100) =>
  origin.call("/api/transfers", { body: { toHandle, amount, note: "" }, headers: keyed(from.auth) });

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("locking and unlocking an account", () => {
  it("is for admins only: 404 to a non-operator, 403 to support and finance", async () => {
    const target = await seedUser("target_person", origin.now());
    const callers = {
      none: [await seedUser("no_role", origin.now()), 404],
      support: [await operator("op_support", "support"), 403],
      finance: [await operator("op_finance", "finance"), 403],
    } as const;
    await operator("op_admin", "admin");
    for (const action of ["lock", "unlock", "sign-out-everywhere"] as const) {
      for (const [who, [caller, status]] of Object.entries(callers)) {
        expect((await act(caller, target, action)).status, `${who} ${action}`).toBe(status);
      }
    }
    expect(await auditActions()).toEqual([]);
  });

  it("leaves a locked person able to sign in, read and ask support, and moves none of their money", async () => {
    const admin = await operator("op_admin", "admin");
    const person = await seedUser("locked_person", origin.now());
    const friend = await seedUser("a_friend", origin.now());
    await fundWallet(origin, person, 5_000);
    await fundWallet(origin, friend, 5_000);

    const locked = await act(admin, person, "lock");
    expect(locked.status).toBe(200);
    expect(((await locked.json()) as { data: { locked: boolean } }).data.locked).toBe(true);

    // It learns that it is locked, and reads its records.
    const session = await origin.call("/api/user/session", { headers: person.auth });
    expect(((await session.json()) as { data: { locked?: boolean } }).data.locked).toBe(true);
    expect((await origin.call("/api/wallet/entries", { method: "GET", headers: person.auth })).status).toBe(200);
    // It asks support.
    const ticket = await origin.call("/api/support/tickets", {
      body: { category: "account", subject: "Why am I locked?", message: "Please tell me." },
      headers: keyed(person.auth),
    });
    expect(ticket.status).toBe(201);

    // Nothing moves: sending, receiving, redeeming, ordering, posting.
    const sent = await transfer(person, "a_friend");
    expect([sent.status, await codeOf(sent)]).toEqual([403, "ACCOUNT_LOCKED"]);
    const received = await transfer(friend, "locked_person");
    expect([received.status, await codeOf(received)]).toEqual([409, "RECIPIENT_UNAVAILABLE"]);
    const redeemed = await origin.call("/api/codes/redeem", { body: { code: "AAAA-BBBB-CCCC-DDDD" }, headers: keyed(person.auth) });
    expect([redeemed.status, await codeOf(redeemed)]).toEqual([403, "ACCOUNT_LOCKED"]);
    const ordered = await origin.call("/api/orders/recharge", { body: { amount: 1_000 }, headers: keyed(person.auth) });
    expect([ordered.status, await codeOf(ordered)]).toEqual([403, "ACCOUNT_LOCKED"]);
    expect(await balanceOf(person.id)).toEqual({ available: 5_000, held: 0 });
    expect(await balanceOf(friend.id)).toEqual({ available: 5_000, held: 0 });

    // It still signs out.
    expect((await origin.call("/api/user/logout", { headers: person.auth })).status).toBe(200);

    // Unlocked, it moves money again.
    const again = await seedUser("locked_person_2", origin.now());
    expect((await act(admin, again, "lock")).status).toBe(200);
    expect((await act(admin, again, "unlock")).status).toBe(200);
    await fundWallet(origin, again, 500);
    expect((await transfer(again, "a_friend", 200)).status).toBe(201);
    await expectLedgerWhole();
  });

  it("answers a retry of what was done before the lock as it was answered, and refuses anything new", async () => {
    const admin = await operator("op_admin", "admin");
    const person = await seedUser("retrying_person", origin.now());
    const [code = "", another = ""] = await issueCodes(origin, 800, 2);
    const headers = keyed(person.auth);
    const redeemed = await origin.call("/api/codes/redeem", { body: { code }, headers });
    expect(redeemed.status).toBe(201);
    // Its answer was lost; the account is locked before the retry.
    expect((await act(admin, person, "lock")).status).toBe(200);
    const retry = await origin.call("/api/codes/redeem", { body: { code }, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await redeemed.json());
    // The same key for another request, and a new request: the lock answers.
    const reused = await origin.call("/api/codes/redeem", { body: { code: another }, headers });
    expect([reused.status, await codeOf(reused)]).toEqual([403, "ACCOUNT_LOCKED"]);
    const fresh = await origin.call("/api/codes/redeem", { body: { code: another }, headers: keyed(person.auth) });
    expect([fresh.status, await codeOf(fresh)]).toEqual([403, "ACCOUNT_LOCKED"]);
    expect(await balanceOf(person.id)).toEqual({ available: 800, held: 0 });
  });

  it("refuses in the batch itself when the lock commits while a request is under way", async () => {
    const person = await seedUser("racing_person", origin.now());
    const friend = await seedUser("a_friend", origin.now());
    await fundWallet(origin, person, 1_000);
    // The doors checked before the lock; the lock lands before the writes: the triggers refuse.
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), person.id).run();
    const sent = await transfer(person, "a_friend");
    expect([sent.status, await codeOf(sent)]).toEqual([403, "ACCOUNT_LOCKED"]);
    await expect(
      env.DB.prepare("INSERT INTO code_redemption (code_hash, user_id, tx_id, at) VALUES ('x', ?1, 'tx_none', 0)").bind(person.id).run(),
    ).rejects.toThrow(/account_locked/);
    await expect(
      env.DB.prepare(
        "INSERT INTO orders (id, user_id, kind, amount, description, created_at, expires_at) VALUES ('ord_locked', ?1, 'recharge', 100, 'x', 0, 1)",
      )
        .bind(person.id)
        .run()
        .then(() =>
          env.DB.prepare(
            "INSERT INTO payment (id, order_id, method, status, amount, created_at, updated_at) VALUES ('pay_locked', 'ord_locked', 'wechat', 'pending', 100, 0, 0)",
          ).run(),
        ),
    ).rejects.toThrow(/account_locked/);
    expect(await balanceOf(person.id)).toEqual({ available: 1_000, held: 0 });
    expect(await balanceOf(friend.id)).toEqual({ available: 0, held: 0 });
    await expectLedgerWhole();
  });

  it("writes one audit row per action and none for a refused one; two admins locking at once lock once", async () => {
    const admin = await operator("op_admin", "admin");
    const second = await operator("op_admin_two", "admin");
    const person = await seedUser("target_person", origin.now());
    const [first, other] = await Promise.all([act(admin, person, "lock"), act(second, person, "lock")]);
    expect([first.status, other.status].sort()).toEqual([200, 409]);
    expect(await codeOf(first.status === 409 ? first : other)).toBe("ALREADY_LOCKED");
    const unlocked = await act(admin, person, "unlock");
    expect(unlocked.status).toBe(200);
    const again = await act(admin, person, "unlock");
    expect([again.status, await codeOf(again)]).toEqual([409, "NOT_LOCKED"]);
    expect((await auditActions()).map((row) => (row as { action: string }).action)).toEqual(["person.lock", "person.unlock"]);
    expect(await auditActions()).toContainEqual(
      expect.objectContaining({ action: "person.lock", object_id: person.id, reason: "Reported stolen phone." }),
    );
  });

  it("answers a replay with the first answer and acts once", async () => {
    const admin = await operator("op_admin", "admin");
    const person = await seedUser("target_person", origin.now());
    const first = await act(admin, person, "lock", "lock-once-key");
    const replay = await act(admin, person, "lock", "lock-once-key");
    expect(replay.status).toBe(200);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.json()).toEqual(await first.json());
    expect(await auditActions()).toHaveLength(1);
  });

  it("never locks the last admin who can act, and a locked operator is no operator", async () => {
    const admin = await operator("op_admin", "admin");
    const refused = await act(admin, admin, "lock");
    expect([refused.status, await codeOf(refused)]).toEqual([409, "LAST_ADMIN"]);
    const support = await operator("op_support", "support");
    expect((await act(admin, support, "lock")).status).toBe(200);
    expect((await origin.call("/api/ops/me", { method: "GET", headers: support.auth })).status).toBe(404);
  });
});

describe("signing a person out everywhere", () => {
  it("ends every session and unused sign-in link of theirs, and no one else's", async () => {
    const admin = await operator("op_admin", "admin");
    const person = await seedUser("target_person", origin.now());
    const bystander = await seedUser("bystander", origin.now());
    const link = await origin.call("/api/user/sign-in-link", { headers: person.auth });
    expect(link.status).toBe(201);
    const linkToken = new URL(((await link.json()) as { data: { path: string } }).data.path, "https://x").searchParams.get("token");

    const answer = await act(admin, person, "sign-out-everywhere");
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: { sessionsEnded: number } }).data.sessionsEnded).toBe(1);
    expect((await origin.call("/api/user/session", { headers: person.auth })).status).toBe(401);
    expect((await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${linkToken}` } })).status).toBe(401);
    expect((await origin.call("/api/user/session", { headers: bystander.auth })).status).toBe(200);
    expect((await auditActions()).map((row) => (row as { action: string }).action)).toEqual(["person.sign_out_everywhere"]);
  });

  it("ends a recovery link issued before too: it could open a new session afterwards", async () => {
    const admin = await operator("op_admin", "admin");
    const other = await operator("op_admin_two", "admin");
    const person = await seedUser("target_person", origin.now());
    const issued = await approvedRecoveryLink(origin, other, admin, person.id);
    expect(issued.status).toBe(201);
    const link = await recoveryLinkToken(issued);
    expect((await act(admin, person, "sign-out-everywhere")).status).toBe(200);
    const used = await origin.call("/api/user/recover-with-link", { body: { link, newPassword: "a brand new passphrase" } });
    expect(used.status).toBe(401);
  });
});
