import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Passkey, RegistrationOptions } from "#contract/passkeys";
import { fixturePassword, givePassword, resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { softwareAuthenticator, type SoftwareAuthenticator } from "../../test/software-authenticator";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let alice: Person;
let bob: Person;

const keyed = (person: Person, key = `pk-${crypto.randomUUID()}`) => ({ ...person.auth, "Idempotency-Key": key });

async function registrationOptions(person: Person): Promise<RegistrationOptions> {
  const answer = await origin.call("/api/account/passkeys/options", { body: { password: fixturePassword }, headers: person.auth });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: RegistrationOptions }).data;
}

async function addPasskey(
  person: Person,
  authenticator: SoftwareAuthenticator,
  {
    name = "My phone",
    key,
    overrides = {},
  }: { name?: string; key?: string; overrides?: Parameters<SoftwareAuthenticator["register"]>[1] } = {},
) {
  const credential = await authenticator.register(await registrationOptions(person), overrides);
  return origin.call("/api/account/passkeys", { body: { name, credential }, headers: keyed(person, key) });
}

async function listOf(person: Person): Promise<Passkey[]> {
  const answer = await origin.call("/api/account/passkeys", { method: "GET", headers: person.auth });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { passkeys: Passkey[] } }).data.passkeys;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice_pk", origin.now());
  bob = await seedUser("bob_pk", origin.now());
  await givePassword(alice.id);
  await givePassword(bob.id);
});

describe("registration options", () => {
  it("name this deploy's relying party and the person, require a discoverable, user-verified passkey, and store a single challenge", async () => {
    const options = await registrationOptions(alice);
    expect(options).toMatchObject({
      rp: { id: "localhost", name: "Paydesk" },
      user: { name: "alice_pk", displayName: "Name of alice_pk" },
      attestation: "none",
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      excludeCredentials: [],
    });
    expect(atob(options.user.id.replace(/-/g, "+").replace(/_/g, "/"))).toBe(alice.id);
    expect(options.pubKeyCredParams.map((param) => param.alg)).toEqual([-8, -7, -257]);
    const stored = await env.DB.prepare(
      "SELECT purpose, user_id, expires_at - created_at AS lifetime FROM webauthn_challenge WHERE challenge = ?1",
    )
      .bind(options.challenge)
      .first();
    expect(stored).toEqual({ purpose: "register", user_id: alice.id, lifetime: 5 * 60 * 1000 });
  });

  it("exclude the passkeys the person has, so an authenticator is not added twice", async () => {
    const authenticator = await softwareAuthenticator();
    expect((await addPasskey(alice, authenticator)).status).toBe(201);
    const options = await registrationOptions(alice);
    expect(options.excludeCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);
  });

  it("need a session", async () => {
    expect((await origin.call("/api/account/passkeys/options", { body: { password: fixturePassword } })).status).toBe(401);
  });

  it("need the password too: a session alone, which a thief may hold, adds no passkey (422 WRONG_PASSWORD)", async () => {
    for (const body of [{ password: "not the password" }, undefined]) {
      const refused = await origin.call("/api/account/passkeys/options", { body, headers: alice.auth });
      expect(refused.status).toBe(body ? 422 : 400);
      if (body) expect(await refused.json()).toMatchObject({ code: "WRONG_PASSWORD", field: "password" });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM webauthn_challenge").first("n")).toBe(0);
  });
});

describe("adding a passkey", () => {
  it("verifies the authenticator's answer and keeps its key under the name given; the list shows it", async () => {
    const authenticator = await softwareAuthenticator({ synced: true });
    const answer = await addPasskey(alice, authenticator, { name: "  Pixel 9  " });
    expect(answer.status).toBe(201);
    const added = ((await answer.json()) as { data: Passkey }).data;
    expect(added).toMatchObject({ name: "Pixel 9", createdAt: "2026-11-01T00:00:00.000Z", lastUsedAt: null, synced: true, backedUp: true });
    expect(added.id).toMatch(/^pk_/);
    expect(await listOf(alice)).toEqual([added]);
    expect(await listOf(bob)).toEqual([]);
    const row = await env.DB.prepare("SELECT credential_id, user_id, counter, transports, device_type, backed_up FROM passkey").first();
    expect(row).toEqual({
      credential_id: authenticator.id,
      user_id: alice.id,
      counter: 0,
      transports: '["internal"]',
      device_type: "multiDevice",
      backed_up: 1,
    });
  });

  it("refuses an answer made for another origin or another relying party (422 PASSKEY_NOT_VERIFIED)", async () => {
    for (const overrides of [
      { origin: "https://paydesk.evil.example" },
      { rpId: "evil.example" },
      { type: "webauthn.get" },
      { userVerified: false },
    ]) {
      const answer = await addPasskey(alice, await softwareAuthenticator(), { overrides });
      expect(answer.status, JSON.stringify(overrides)).toBe(422);
      expect(await answer.json()).toMatchObject({ code: "PASSKEY_NOT_VERIFIED" });
    }
    expect(await listOf(alice)).toEqual([]);
  });

  it("spends the challenge once: a second answer to the same options is refused (422 PASSKEY_CHALLENGE_EXPIRED)", async () => {
    const options = await registrationOptions(alice);
    const first = await (await softwareAuthenticator()).register(options);
    const second = await (await softwareAuthenticator()).register(options);
    const answers = [
      await origin.call("/api/account/passkeys", { body: { name: "One", credential: first }, headers: keyed(alice) }),
      await origin.call("/api/account/passkeys", { body: { name: "Two", credential: second }, headers: keyed(alice) }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 422]);
    expect(await answers[1]?.json()).toMatchObject({ code: "PASSKEY_CHALLENGE_EXPIRED" });
  });

  it("lets only one of several answers racing on one challenge through", async () => {
    const options = await registrationOptions(alice);
    const credentials = await Promise.all(Array.from({ length: 6 }, async () => (await softwareAuthenticator()).register(options)));
    const answers = await Promise.all(
      credentials.map((credential, n) =>
        origin.call("/api/account/passkeys", { body: { name: `Key ${n}`, credential }, headers: keyed(alice) }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect(await listOf(alice)).toHaveLength(1);
  });

  it("refuses a challenge older than five minutes, one of another person's, and one never issued", async () => {
    const authenticator = await softwareAuthenticator();
    const stale = await authenticator.register(await registrationOptions(alice));
    origin.advance(5 * 60 * 1000 + 1);
    const late = await origin.call("/api/account/passkeys", { body: { name: "Late", credential: stale }, headers: keyed(alice) });
    expect(late.status).toBe(422);
    expect(await late.json()).toMatchObject({ code: "PASSKEY_CHALLENGE_EXPIRED" });

    const bobs = await authenticator.register(await registrationOptions(bob));
    const taken = await origin.call("/api/account/passkeys", { body: { name: "Bob's", credential: bobs }, headers: keyed(alice) });
    expect(taken.status).toBe(422);

    const invented = await authenticator.register(await registrationOptions(alice), { challenge: "A".repeat(43) });
    const made = await origin.call("/api/account/passkeys", { body: { name: "Made up", credential: invented }, headers: keyed(alice) });
    expect(made.status).toBe(422);
    expect(await listOf(alice)).toEqual([]);
  });

  it("replays the first answer to a retry with the same Idempotency-Key, adding one passkey", async () => {
    const options = await registrationOptions(alice);
    const credential = await (await softwareAuthenticator()).register(options);
    const send = () =>
      origin.call("/api/account/passkeys", { body: { name: "Laptop", credential }, headers: keyed(alice, "add-passkey-0001") });
    const first = await send();
    const retry = await send();
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
    expect(await listOf(alice)).toHaveLength(1);
  });

  it("refuses a credential already on an account (409 PASSKEY_ALREADY_ADDED)", async () => {
    const authenticator = await softwareAuthenticator();
    expect((await addPasskey(alice, authenticator)).status).toBe(201);
    const again = await addPasskey(bob, authenticator);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "PASSKEY_ALREADY_ADDED" });
  });

  it("stops at 20 passkeys (409 TOO_MANY_PASSKEYS)", async () => {
    const options = await registrationOptions(alice);
    const statements = Array.from({ length: 20 }, (_, n) =>
      env.DB.prepare(
        `INSERT INTO passkey (id, credential_id, user_id, public_key, counter, device_type, backed_up, name, created_at)
         VALUES (?1, ?2, ?3, 'AA', 0, 'singleDevice', 0, ?4, ?5)`,
      ).bind(`pk_${crypto.randomUUID()}`, `cred${n}`, alice.id, `Key ${n}`, origin.now()),
    );
    await env.DB.batch(statements);
    const refused = await origin.call("/api/account/passkeys/options", { body: { password: fixturePassword }, headers: alice.auth });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "TOO_MANY_PASSKEYS" });
    // Options asked for before the 20th was added do not make a 21st.
    const late = await (await softwareAuthenticator()).register(options);
    const answer = await origin.call("/api/account/passkeys", { body: { name: "21st", credential: late }, headers: keyed(alice) });
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({ code: "TOO_MANY_PASSKEYS" });
  });

  it("names the field of a body that is not a browser's answer, and does not take client data that is not a browser's", async () => {
    const answer = await origin.call("/api/account/passkeys", {
      body: { name: "X", credential: { id: "abc", rawId: "abc", type: "public-key", response: {}, clientExtensionResults: {} } },
      headers: keyed(alice),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "BAD_REQUEST", field: "credential.response.clientDataJSON" });
    const credential = await (await softwareAuthenticator()).register(await registrationOptions(alice));
    const garbled = await origin.call("/api/account/passkeys", {
      body: { name: "X", credential: { ...credential, response: { ...credential.response, clientDataJSON: "bm90IGpzb24" } } },
      headers: keyed(alice),
    });
    expect(garbled.status).toBe(422);
    expect(await garbled.json()).toMatchObject({ code: "PASSKEY_NOT_VERIFIED" });
    const unnamed = await origin.call("/api/account/passkeys", {
      body: { name: " ", credential: await (await softwareAuthenticator()).register(await registrationOptions(alice)) },
      headers: keyed(alice),
    });
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toMatchObject({ code: "BAD_REQUEST", field: "name" });
  });
});

describe("renaming and removing", () => {
  async function alicesPasskey(): Promise<Passkey> {
    const answer = await addPasskey(alice, await softwareAuthenticator(), { name: "Old name" });
    return ((await answer.json()) as { data: Passkey }).data;
  }

  it("renames and removes my own passkey", async () => {
    const passkey = await alicesPasskey();
    const renamed = await origin.call(`/api/account/passkeys/${passkey.id}/rename`, { body: { name: "Work laptop" }, headers: alice.auth });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ data: { id: passkey.id, name: "Work laptop" } });
    const removed = await origin.call(`/api/account/passkeys/${passkey.id}/remove`, { headers: alice.auth });
    expect(removed.status).toBe(200);
    expect(await listOf(alice)).toEqual([]);
    expect((await origin.call(`/api/account/passkeys/${passkey.id}/remove`, { headers: alice.auth })).status).toBe(404);
  });

  it("answers 404 to another person renaming or removing it, and leaves it alone", async () => {
    const passkey = await alicesPasskey();
    const renamed = await origin.call(`/api/account/passkeys/${passkey.id}/rename`, { body: { name: "Mine now" }, headers: bob.auth });
    expect(renamed.status).toBe(404);
    expect(await renamed.json()).toMatchObject({ code: "NOT_FOUND" });
    expect((await origin.call(`/api/account/passkeys/${passkey.id}/remove`, { headers: bob.auth })).status).toBe(404);
    expect(await listOf(alice)).toEqual([passkey]);
  });
});

describe("a locked account", () => {
  it("lists its passkeys and may remove one, which only ends a way in, but adds and renames none (403 ACCOUNT_LOCKED)", async () => {
    const answer = await addPasskey(alice, await softwareAuthenticator());
    const passkey = ((await answer.json()) as { data: Passkey }).data;
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), alice.id).run();
    expect(await listOf(alice)).toHaveLength(1);
    for (const [path, body] of [
      ["/api/account/passkeys/options", { password: fixturePassword }],
      [`/api/account/passkeys/${passkey.id}/rename`, { name: "New" }],
    ] as const) {
      const refused = await origin.call(path, { body, headers: alice.auth });
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
    }
    expect((await origin.call(`/api/account/passkeys/${passkey.id}/remove`, { headers: alice.auth })).status).toBe(200);
    expect(await listOf(alice)).toEqual([]);
  });

  it("loses a race with the lock: a passkey being added when the lock commits is not added", async () => {
    const credential = await (await softwareAuthenticator()).register(await registrationOptions(alice));
    // The lock lands after the door's check, before the insert.
    await env.DB.exec(
      "CREATE TRIGGER lock_alice_now AFTER DELETE ON webauthn_challenge BEGIN UPDATE user SET locked_at = 1 WHERE handle = 'alice_pk'; END",
    );
    try {
      const answer = await origin.call("/api/account/passkeys", { body: { name: "Late", credential }, headers: keyed(alice) });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
    } finally {
      await env.DB.exec("DROP TRIGGER lock_alice_now");
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM passkey").first("n")).toBe(0);
  });
});
