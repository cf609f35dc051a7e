import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { AuthenticationOptions, Passkey, RegistrationOptions } from "#contract/passkeys";
import { beforeBatch, fixturePassword, givePassword, resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { type SoftwareAuthenticator, softwareAuthenticator, strangerKey } from "../../test/software-authenticator";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let alice: Person;

type Credential = Awaited<ReturnType<SoftwareAuthenticator["authenticate"]>>;

async function addPasskey(person: Person, authenticator: SoftwareAuthenticator): Promise<Passkey> {
  await givePassword(person.id);
  const options = await origin.call("/api/account/passkeys/options", { body: { password: fixturePassword }, headers: person.auth });
  const credential = await authenticator.register(((await options.json()) as { data: RegistrationOptions }).data);
  const added = await origin.call("/api/account/passkeys", {
    body: { name: "Phone", credential },
    headers: { ...person.auth, "Idempotency-Key": `pk-${crypto.randomUUID()}` },
  });
  expect(added.status).toBe(201);
  return ((await added.json()) as { data: Passkey }).data;
}

async function signInOptions(): Promise<AuthenticationOptions> {
  const answer = await origin.call("/api/user/passkey/options");
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: AuthenticationOptions }).data;
}

const signIn = (credential: Credential, db?: D1Database) =>
  origin.call("/api/user/passkey/login", { body: { credential }, ...(db ? { db } : {}) });

let authenticator: SoftwareAuthenticator;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice_pk", origin.now());
  authenticator = await softwareAuthenticator();
  await addPasskey(alice, authenticator);
});

describe("signing in with a passkey", () => {
  it("offers options for any passkey of this site (no allowCredentials: autofill can list them)", async () => {
    const options = await signInOptions();
    expect(options).toEqual({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      rpId: "localhost",
      timeout: 300_000,
      userVerification: "required",
    });
    expect(
      await env.DB.prepare("SELECT purpose, user_id FROM webauthn_challenge WHERE challenge = ?1").bind(options.challenge).first(),
    ).toEqual({
      purpose: "sign_in",
      user_id: null,
    });
  });

  it("answers a new session token as the password sign-in does, and records when the passkey was used", async () => {
    origin.advance(60_000);
    const answer = await signIn(await authenticator.authenticate(await signInOptions()));
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: { token: string; user: { handle: string } } };
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.user).toMatchObject({ handle: "alice_pk", displayName: "Name of alice_pk" });
    const session = await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${data.token}` } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ data: { id: alice.id, handle: "alice_pk" } });
    const listed = await origin.call("/api/account/passkeys", { method: "GET", headers: alice.auth });
    expect(await listed.json()).toMatchObject({ data: { passkeys: [{ lastUsedAt: "2026-11-01T00:01:00.000Z" }] } });
  });

  it("refuses a wrong signature (401 PASSKEY_NOT_RECOGNISED), and the challenge is spent by that try", async () => {
    const options = await signInOptions();
    const forged = await signIn(await authenticator.authenticate(options, { signWith: await strangerKey() }));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: "PASSKEY_NOT_RECOGNISED" });
    const honest = await signIn(await authenticator.authenticate(options));
    expect(honest.status).toBe(422);
    expect(await honest.json()).toMatchObject({ code: "PASSKEY_CHALLENGE_EXPIRED" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM session WHERE user_id = ?1").bind(alice.id).first("n")).toBe(1);
  });

  it("refuses an answer made for another origin or relying party, one without user verification, and a registration's client data", async () => {
    for (const overrides of [
      { origin: "https://paydesk.evil.example" },
      { rpId: "evil.example" },
      { userVerified: false },
      { type: "webauthn.create" },
    ]) {
      const answer = await signIn(await authenticator.authenticate(await signInOptions(), overrides));
      expect(answer.status, JSON.stringify(overrides)).toBe(401);
    }
    // The same key and options otherwise sign in: it was the field that made the difference.
    expect((await signIn(await authenticator.authenticate(await signInOptions()))).status).toBe(200);
  });

  it("takes a challenge once: replaying a signed answer is refused (422 PASSKEY_CHALLENGE_EXPIRED)", async () => {
    const credential = await authenticator.authenticate(await signInOptions());
    expect((await signIn(credential)).status).toBe(200);
    const replayed = await signIn(credential);
    expect(replayed.status).toBe(422);
    expect(await replayed.json()).toMatchObject({ code: "PASSKEY_CHALLENGE_EXPIRED" });
  });

  it("lets exactly one of several verifications racing on one challenge through", async () => {
    const options = await signInOptions();
    const credentials = await Promise.all(Array.from({ length: 8 }, () => authenticator.authenticate(options)));
    const answers = await Promise.all(credentials.map((credential) => signIn(credential)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422, 422, 422, 422, 422, 422, 422]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM session WHERE user_id = ?1").bind(alice.id).first("n")).toBe(2);
  });

  it("refuses a challenge older than five minutes and one made up", async () => {
    const stale = await authenticator.authenticate(await signInOptions());
    origin.advance(5 * 60 * 1000 + 1);
    expect((await signIn(stale)).status).toBe(422);
    const madeUp = await signIn(await authenticator.authenticate(await signInOptions(), { challenge: "B".repeat(43) }));
    expect(madeUp.status).toBe(422);
  });

  it("refuses a removed passkey (401 PASSKEY_NOT_RECOGNISED)", async () => {
    const [passkey] = (
      (await (await origin.call("/api/account/passkeys", { method: "GET", headers: alice.auth })).json()) as {
        data: { passkeys: Passkey[] };
      }
    ).data.passkeys;
    expect((await origin.call(`/api/account/passkeys/${passkey?.id}/remove`, { headers: alice.auth })).status).toBe(200);
    const answer = await signIn(await authenticator.authenticate(await signInOptions()));
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ code: "PASSKEY_NOT_RECOGNISED" });
  });

  it("refuses an answer whose user handle names someone else", async () => {
    const bob = await seedUser("bob_pk", origin.now());
    const handle = btoa(bob.id).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    expect((await signIn(await authenticator.authenticate(await signInOptions(), { userHandle: handle }))).status).toBe(401);
    // Without a handle (a security key may keep none) the credential alone names the person.
    expect((await signIn(await authenticator.authenticate(await signInOptions(), { userHandle: null }))).status).toBe(200);
  });

  it("refuses a signature counter that went back (a cloned authenticator)", async () => {
    const counting = await softwareAuthenticator({ counter: 5 });
    await addPasskey(alice, counting);
    expect((await signIn(await counting.authenticate(await signInOptions()))).status).toBe(200);
    const counter = await env.DB.prepare("SELECT counter FROM passkey WHERE credential_id = ?1").bind(counting.id).first("counter");
    expect(counter).toBe(6);
    counting.setCounter(4);
    const cloned = await signIn(await counting.authenticate(await signInOptions()));
    expect(cloned.status).toBe(401);
    counting.setCounter(6);
    expect((await signIn(await counting.authenticate(await signInOptions()))).status).toBe(200);

    // Two signatures carrying one counter (a clone and its original), both read before either
    // is counted, in the same millisecond: the one counted second opens no session.
    const first = await counting.authenticate(await signInOptions());
    counting.setCounter(7);
    const twin = await counting.authenticate(await signInOptions());
    let firstStatus = 0;
    const second = await signIn(
      twin,
      beforeBatch(1, async () => {
        firstStatus = (await signIn(first)).status;
      }),
    );
    expect(firstStatus).toBe(200);
    expect(second.status).toBe(401);
  });

  it("signs a locked account in, as the password does: the session says it is locked", async () => {
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), alice.id).run();
    const answer = await signIn(await authenticator.authenticate(await signInOptions()));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { user: { handle: "alice_pk", locked: true } } });
  });

  it("signs in while the handle is locked for failed passwords: a passkey cannot be guessed", async () => {
    for (let n = 0; n < 10; n += 1) await origin.call("/api/user/login", { body: { handle: "alice_pk", password: "wrong password!" } });
    expect((await origin.call("/api/user/login", { body: { handle: "alice_pk", password: "wrong password!" } })).status).toBe(429);
    expect((await signIn(await authenticator.authenticate(await signInOptions()))).status).toBe(200);
  });

  it("does not take client data that is not a browser's (401 PASSKEY_NOT_RECOGNISED)", async () => {
    const credential = await authenticator.authenticate(await signInOptions());
    const answer = await signIn({ ...credential, response: { ...credential.response, clientDataJSON: "bm90IGpzb24" } });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ code: "PASSKEY_NOT_RECOGNISED" });
  });
});
