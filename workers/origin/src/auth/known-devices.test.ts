import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, seedOperator, testOrigin } from "../../test/origin-client";
import { approvedRecoveryLink, recoveryLinkToken } from "../../test/recovery-links";
import { hashToken } from "./bearer-token";
import { knownDeviceLifetimeMs, knownDevicesPerPerson } from "./known-devices";

// docs/decisions/061-known-devices.md
let origin = testOrigin();
const alice = { handle: "alice_01", password: "correct horse battery", displayName: "Alice Wang" };
const bob = { handle: "bob_0001", password: "another good passphrase", displayName: "Bob Li" };
const minute = 60_000;

type Answer = { code: string; field?: string; message?: string; data: { token: string; deviceToken: string; id: string } };
const json = async (response: Response) => (await response.json()) as Answer;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function register(person: typeof alice) {
  const response = await origin.call("/api/user/register", { body: person, headers: { "Idempotency-Key": `reg-${crypto.randomUUID()}` } });
  expect(response.status).toBe(201);
  return (await json(response)).data.id;
}
const knownDevices = () => env.DB.prepare("SELECT count(*) AS n FROM known_device").first<number>("n");

function signIn(password: string, deviceToken?: string, handle = alice.handle) {
  return origin.call("/api/user/login", { body: { handle, password, ...(deviceToken ? { deviceToken } : {}) } });
}

/** Signs in with the right password; answers the session and device tokens. */
async function signedIn(deviceToken?: string, person = alice) {
  const response = await signIn(person.password, deviceToken, person.handle);
  expect(response.status).toBe(200);
  return (await json(response)).data;
}

/** A stranger's wrong passwords, until the handle locks. */
async function strangerLocksOut(handle = alice.handle) {
  for (let attempt = 0; attempt < 10; attempt += 1) expect((await signIn("a stranger's guess", undefined, handle)).status).toBe(401);
  expect((await signIn(alice.password, undefined, handle)).status).toBe(429);
}

let aliceId = "";
beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  aliceId = await register(alice);
});

describe("a known device", () => {
  it("is named by a sign-in with the password, and only its token's hash is kept", async () => {
    const { deviceToken } = await signedIn();
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await env.DB.prepare("SELECT token_hash FROM known_device").all<{ token_hash: string }>();
    expect(rows.results).toEqual([{ token_hash: await hashToken(deviceToken) }]);
    // Signing in again from it keeps the same token.
    expect((await signedIn(deviceToken)).deviceToken).toBe(deviceToken);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM known_device").first("n")).toBe(1);
  });

  it("keeps signing in while a stranger's failures lock the handle", async () => {
    const { deviceToken } = await signedIn();
    await strangerLocksOut();
    const mine = await signIn(alice.password, deviceToken);
    expect(mine.status).toBe(200);
    expect((await json(mine)).data.deviceToken).toBe(deviceToken);
    // Its success does not reset the stranger's count: the handle stays locked to strangers.
    expect((await signIn(alice.password)).status).toBe(429);
  });

  it("is forgotten, not locked, after as many failures as the lock allows: from then on it is a stranger", async () => {
    const { deviceToken } = await signedIn();
    for (let attempt = 0; attempt < 9; attempt += 1) expect((await signIn("mistyped password", deviceToken)).status).toBe(401);
    expect(await knownDevices()).toBe(1);
    expect((await signIn("mistyped password", deviceToken)).status).toBe(401);
    expect(await knownDevices()).toBe(0);
    // The handle counted none of those failures: the right password signs in, from anywhere,
    // and this browser is named a device again, with a new token.
    const again = await signIn(alice.password, deviceToken);
    expect(again.status).toBe(200);
    expect((await json(again)).data.deviceToken).not.toBe(deviceToken);
  });

  it("taken from a shared computer, buys one round of guesses: then the handle's lock holds it too", async () => {
    const { deviceToken } = await signedIn();
    await strangerLocksOut();
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await signIn("a stranger's guess", deviceToken)).status).toBe(401);
    const locked = await signIn(alice.password, deviceToken);
    expect(locked.status).toBe(429);
    expect(await json(locked)).toMatchObject({ code: "SIGN_IN_LOCKED" });
  });

  it("clears its own failures when it signs in", async () => {
    const { deviceToken } = await signedIn();
    for (let attempt = 0; attempt < 9; attempt += 1) expect((await signIn("mistyped password", deviceToken)).status).toBe(401);
    expect((await signIn(alice.password, deviceToken)).status).toBe(200);
    for (let attempt = 0; attempt < 9; attempt += 1) expect((await signIn("mistyped password", deviceToken)).status).toBe(401);
    expect(await knownDevices()).toBe(1);
  });

  it("counts for its own person only: another person's token at this handle is a stranger's", async () => {
    await register(bob);
    const bobs = await signedIn(undefined, bob);
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await signIn("a stranger's guess", bobs.deviceToken)).status).toBe(401);
    expect((await signIn(alice.password, bobs.deviceToken)).status).toBe(429);
    expect((await signIn(alice.password)).status).toBe(429);
    // A token the origin never issued is a stranger's too, with the same answers.
    const madeUp = "A".repeat(43);
    const guessed = await signIn("a stranger's guess", madeUp, bob.handle);
    expect(guessed.status).toBe(401);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sign_in_failure WHERE handle = ?1").bind(bob.handle).first("n")).toBe(1);
  });

  it("refuses a token that is not one with 400 naming deviceToken", async () => {
    const response = await signIn(alice.password, "not a device token");
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ code: "BAD_REQUEST", field: "deviceToken" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sign_in_failure").first("n")).toBe(0);
  });

  it("stays known for 90 days after it last signed in", async () => {
    const { deviceToken } = await signedIn();
    origin.advance(knownDeviceLifetimeMs - 1);
    await strangerLocksOut();
    expect((await signIn(alice.password, deviceToken)).status).toBe(200);
    // That sign-in renewed it for another 90 days.
    origin.advance(knownDeviceLifetimeMs - 1);
    await strangerLocksOut();
    expect((await signIn(alice.password, deviceToken)).status).toBe(200);
    origin.advance(knownDeviceLifetimeMs);
    await strangerLocksOut();
    expect((await signIn(alice.password, deviceToken)).status).toBe(429);
  });

  it("stays known while a session it opened is used, though the password is not typed again", async () => {
    const { token, deviceToken } = await signedIn();
    const use = async () => expect((await origin.call("/api/user/session", { headers: bearer(token) })).status).toBe(200);
    for (let day = 0; day < 6; day += 1) {
      origin.advance(20 * 24 * 60 * minute);
      await use();
    }
    // 120 days since the password was typed.
    await strangerLocksOut();
    expect((await signIn(alice.password, deviceToken)).status).toBe(200);
  });

  it(`is forgotten when the person has signed in on ${knownDevicesPerPerson} more recently`, async () => {
    const oldest = await signedIn();
    origin.advance(1);
    const second = await signedIn();
    for (let n = 0; n < knownDevicesPerPerson - 1; n += 1) await signedIn();
    await strangerLocksOut();
    expect((await signIn(alice.password, oldest.deviceToken)).status).toBe(429);
    expect((await signIn(alice.password, second.deviceToken)).status).toBe(200);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM known_device").first("n")).toBe(knownDevicesPerPerson);
  });
});

describe("known devices when the account is taken back", () => {
  it("a password change forgets them all and names this browser the first new one", async () => {
    const here = await signedIn();
    const thief = await signedIn();
    const changed = await origin.call("/api/account/password", {
      body: { currentPassword: alice.password, newPassword: "a much newer passphrase" },
      headers: bearer(here.token),
    });
    expect(changed.status).toBe(200);
    const { deviceToken } = (await json(changed)).data;
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(deviceToken).not.toBe(here.deviceToken);
    expect(await knownDevices()).toBe(1);
    await strangerLocksOut();
    expect((await signIn("a much newer passphrase", thief.deviceToken)).status).toBe(429);
    expect((await signIn("a much newer passphrase", here.deviceToken)).status).toBe(429);
    expect((await signIn("a much newer passphrase", deviceToken)).status).toBe(200);
  });

  it("an admin signing the person out everywhere forgets them all", async () => {
    const here = await signedIn();
    const admin = await seedOperator("ops_admin", "admin", origin.now());
    const out = await origin.call(`/api/ops/people/${aliceId}/sign-out-everywhere`, {
      body: { reason: "Reported stolen by phone" },
      headers: { ...admin.auth, "Idempotency-Key": `out-${crypto.randomUUID()}` },
    });
    expect(out.status).toBe(200);
    expect(await knownDevices()).toBe(0);
    await strangerLocksOut();
    expect((await signIn(alice.password, here.deviceToken)).status).toBe(429);
  });

  it("ending one's other sessions keeps them: it proves no password, and takes nothing back from whoever knows it", async () => {
    const here = await signedIn();
    expect((await origin.call("/api/account/sessions/end-others", { headers: bearer(here.token) })).status).toBe(200);
    await strangerLocksOut();
    expect((await signIn(alice.password, here.deviceToken)).status).toBe(200);
  });

  it("a recovery link an admin issued forgets them all and names the browser that used it", async () => {
    const old = await signedIn();
    const admin = await seedOperator("ops_admin", "admin", origin.now());
    const approver = await seedOperator("ops_admin_two", "admin", origin.now());
    const link = await recoveryLinkToken(await approvedRecoveryLink(origin, admin, approver, aliceId));
    const used = await origin.call("/api/user/recover-with-link", { body: { link, newPassword: "recovered passphrase" } });
    expect(used.status).toBe(200);
    const { deviceToken } = (await json(used)).data;
    const rows = await env.DB.prepare("SELECT token_hash FROM known_device").all<{ token_hash: string }>();
    expect(rows.results).toEqual([{ token_hash: await hashToken(deviceToken) }]);
    await strangerLocksOut();
    expect((await signIn("recovered passphrase", old.deviceToken)).status).toBe(429);
    expect((await signIn("recovered passphrase", deviceToken)).status).toBe(200);
  });
});

describe("recovering with a code", () => {
  async function recoveryCode(token: string) {
    const made = await origin.call("/api/account/recovery-codes", { body: { password: alice.password }, headers: bearer(token) });
    expect(made.status).toBe(201);
    return ((await made.json()) as { data: { codes: string[] } }).data.codes[0] as string;
  }
  const recover = (code: string, deviceToken?: string) =>
    origin.call("/api/user/recover", {
      body: { handle: alice.handle, code, newPassword: "a fresh passphrase", ...(deviceToken ? { deviceToken } : {}) },
    });

  it("works from a known device while the handle is locked, and names it afresh, forgetting the rest", async () => {
    const here = await signedIn();
    const other = await signedIn();
    const code = await recoveryCode(here.token);
    await strangerLocksOut();
    expect((await recover(code)).status).toBe(429);
    const recovered = await recover(code, here.deviceToken);
    expect(recovered.status).toBe(200);
    const fresh = (await json(recovered)).data.deviceToken;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(here.deviceToken);
    const rows = await env.DB.prepare("SELECT token_hash FROM known_device").all<{ token_hash: string }>();
    expect(rows.results).toEqual([{ token_hash: await hashToken(fresh) }]);
    expect((await signIn("a fresh passphrase", other.deviceToken)).status).toBe(429);
    expect((await signIn("a fresh passphrase", fresh)).status).toBe(200);
  });

  it("counts a known device's wrong codes against it, not the handle, and forgets it at the lock's count", async () => {
    const here = await signedIn();
    await recoveryCode(here.token);
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await recover("ABCD-EFGH-JKMN", here.deviceToken)).status).toBe(401);
    expect(await knownDevices()).toBe(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sign_in_failure WHERE handle = ?1").bind(alice.handle).first("n")).toBe(0);
  });
});
