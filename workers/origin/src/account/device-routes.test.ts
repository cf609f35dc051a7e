import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, testOrigin } from "../../test/origin-client";
import { hashToken } from "../auth/bearer-token";
import { knownDeviceLifetimeMs } from "../auth/known-devices";

// docs/decisions/069-known-devices-listed.md
let origin = testOrigin();
const alice = { handle: "alice_dev", password: "correct horse battery", displayName: "Alice Wang" };
const bob = { handle: "bob_dev", password: "another good passphrase", displayName: "Bob Li" };
const mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

type Device = { id: string; device: string | null; createdAt: string; lastUsedAt: string; current: boolean };
type Answer<T> = { code: string; field?: string; data: T };
const json = async <T>(response: Response) => (await response.json()) as Answer<T>;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function register(person: typeof alice) {
  const response = await origin.call("/api/user/register", { body: person, headers: { "Idempotency-Key": `reg-${crypto.randomUUID()}` } });
  expect(response.status).toBe(201);
}

/** A sign-in with the password from a browser: its session token and its device token. */
async function signIn(person: typeof alice, userAgent: string, deviceToken?: string) {
  const response = await origin.call("/api/user/login", {
    body: { handle: person.handle, password: person.password, ...(deviceToken ? { deviceToken } : {}) },
    headers: { "User-Agent": userAgent },
  });
  expect(response.status).toBe(200);
  return (await json<{ token: string; deviceToken: string }>(response)).data;
}

async function devices(token: string): Promise<Device[]> {
  const response = await origin.call("/api/account/devices", { method: "GET", headers: bearer(token) });
  expect(response.status).toBe(200);
  return (await json<{ devices: Device[] }>(response)).data.devices;
}

const forget = (token: string, id: string, password = alice.password) =>
  origin.call(`/api/account/devices/${id}/forget`, { headers: bearer(token), body: { password } });
const idOf = async (deviceToken: string) =>
  (await env.DB.prepare("SELECT id FROM known_device WHERE token_hash = ?1")
    .bind(await hashToken(deviceToken))
    .first<string>("id")) ?? "";

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  await register(alice);
  await register(bob);
});

describe("known devices on the account page", () => {
  it("lists the browsers that proved the password, named by their browser, most recent first, this one marked, and no token", async () => {
    const onPhone = await signIn(alice, phone);
    origin.advance(60_000);
    const onMac = await signIn(alice, mac);
    const listed = await devices(onMac.token);
    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^dev_[0-9a-f]{32}$/),
        device: "Safari on macOS",
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: true,
      },
      {
        id: expect.stringMatching(/^dev_[0-9a-f]{32}$/),
        device: "Chrome on Android",
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: false,
      },
    ]);
    expect(listed[1]?.id).toBe(await idOf(onPhone.deviceToken));
    const text = JSON.stringify(listed);
    for (const secret of [onPhone.deviceToken, onMac.deviceToken, await hashToken(onMac.deviceToken)]) expect(text).not.toContain(secret);
    // From the phone, the phone is this one.
    expect((await devices(onPhone.token)).map((device) => device.current)).toEqual([false, true]);
    // Another person sees none of them.
    expect(await devices((await signIn(bob, mac)).token)).toEqual([expect.objectContaining({ device: "Safari on macOS", current: true })]);
  });

  it("names a device by the browser it last proved the password with, and an older one without a name as unknown", async () => {
    const first = await signIn(alice, phone);
    const again = await signIn(alice, mac, first.deviceToken);
    expect(again.deviceToken).toBe(first.deviceToken);
    expect((await devices(again.token)).map((device) => device.device)).toEqual(["Safari on macOS"]);
    // One known before devices kept their browser.
    await env.DB.prepare("UPDATE known_device SET user_agent = NULL").run();
    expect((await devices(again.token)).map((device) => device.device)).toEqual([null]);
  });

  it("leaves out a device past its lifetime, which nothing used since", async () => {
    const old = await signIn(alice, phone);
    origin.advance(knownDeviceLifetimeMs + 1);
    // A device stays known while a session it opened is used (decision 061); this one's was not.
    const later = await signIn(alice, mac);
    expect((await devices(later.token)).map((device) => device.device)).toEqual(["Safari on macOS"]);
    expect((await forget(later.token, await idOf(old.deviceToken))).status).toBe(404);
  });

  it("forgets one: it leaves the list, and its token counts as a stranger's from then on", async () => {
    const onPhone = await signIn(alice, phone);
    const onMac = await signIn(alice, mac);
    const phoneId = (await devices(onMac.token)).find((device) => !device.current)?.id ?? "";
    const forgotten = await forget(onMac.token, phoneId);
    expect(forgotten.status).toBe(200);
    expect((await json(forgotten)).data).toEqual({ devicesForgotten: 1 });
    expect((await devices(onMac.token)).map((device) => device.device)).toEqual(["Safari on macOS"]);
    // Forgotten twice is not there.
    expect((await forget(onMac.token, phoneId)).status).toBe(404);
    // The phone's sessions stay: forgetting a device ends none (the sessions list does that).
    expect((await origin.call("/api/user/session", { headers: bearer(onPhone.token) })).status).toBe(200);
    // A stranger's failures lock the handle; the phone's old token no longer passes the lock.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const wrong = await origin.call("/api/user/login", { body: { handle: alice.handle, password: "a stranger's guess" } });
      expect(wrong.status).toBe(401);
    }
    const throughLock = (deviceToken: string) =>
      origin.call("/api/user/login", { body: { handle: alice.handle, password: alice.password, deviceToken } });
    expect((await throughLock(onPhone.deviceToken)).status).toBe(429);
    expect((await throughLock(onMac.deviceToken)).status).toBe(200);
  });

  it("may forget the device it is on, and answers 404 for another person's device or a made-up one", async () => {
    const onMac = await signIn(alice, mac);
    const own = (await devices(onMac.token))[0]?.id ?? "";
    const bobs = (await devices((await signIn(bob, phone)).token))[0]?.id ?? "";
    expect(bobs).toMatch(/^dev_[0-9a-f]{32}$/);
    const foreign = await forget(onMac.token, bobs);
    expect(foreign.status).toBe(404);
    expect((await json(foreign)).code).toBe("NOT_FOUND");
    expect((await forget(onMac.token, `dev_${"0".repeat(32)}`)).status).toBe(404);
    expect((await forget(onMac.token, own)).status).toBe(200);
    expect(await devices(onMac.token)).toEqual([]);
  });

  it("asks for the password: a stolen session alone forgets nothing", async () => {
    const onPhone = await signIn(alice, phone);
    const onMac = await signIn(alice, mac);
    const refused = await forget(onMac.token, await idOf(onPhone.deviceToken), "a thief's guess at it");
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({ code: "WRONG_PASSWORD", field: "password" });
    expect(await devices(onMac.token)).toHaveLength(2);
    // Nor does it say whether an id is a device, without the password.
    expect((await forget(onMac.token, `dev_${"0".repeat(32)}`, "a thief's guess at it")).status).toBe(422);
  });

  it("shows a device's last use as its live sessions' latest, which its own time follows only once a day", async () => {
    const onPhone = await signIn(alice, phone);
    origin.advance(3 * 60 * 60_000);
    // The phone's session is used three hours later: the trigger leaves the device's own time alone.
    expect((await origin.call("/api/user/session", { headers: bearer(onPhone.token) })).status).toBe(200);
    const [listed] = await devices(onPhone.token);
    expect(listed?.lastUsedAt).toBe(new Date(origin.now()).toISOString());
    expect(listed?.createdAt).toBe(new Date(origin.now() - 3 * 60 * 60_000).toISOString());
  });

  it("has an id the database gives it, random, even for a row written by code that names none", async () => {
    const onMac = await signIn(alice, mac);
    const own = await idOf(onMac.deviceToken);
    expect(own).toMatch(/^dev_[0-9a-f]{32}$/);
    expect(own.slice(4)).not.toBe((await hashToken(onMac.deviceToken)).slice(0, 32));
    const userId = await env.DB.prepare("SELECT id FROM user WHERE handle = ?1").bind(alice.handle).first<string>("id");
    await env.DB.prepare("INSERT INTO known_device (token_hash, user_id, created_at, last_used_at) VALUES (?1, ?2, ?3, ?3)")
      .bind("a".repeat(64), userId, origin.now())
      .run();
    const ids = (await devices(onMac.token)).map((device) => device.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^dev_[0-9a-f]{32}$/);
  });

  it("lists first the device whose sessions were used last, though its own time lags by up to a day", async () => {
    const onPhone = await signIn(alice, phone);
    origin.advance(60_000);
    const onMac = await signIn(alice, mac);
    origin.advance(60 * 60_000);
    // The phone's session is used an hour later: the device's own time stays, its session's moves.
    expect((await origin.call("/api/user/session", { headers: bearer(onPhone.token) })).status).toBe(200);
    // Listing uses the Mac's session too: unlinked from its device, the Mac keeps its own time.
    await env.DB.prepare("UPDATE session SET device_hash = NULL WHERE token_hash = ?1")
      .bind(await hashToken(onMac.token))
      .run();
    expect((await devices(onMac.token)).map((device) => device.device)).toEqual(["Chrome on Android", "Safari on macOS"]);
    // Signed out of, the phone was still used then.
    expect((await origin.call("/api/user/logout", { headers: bearer(onPhone.token) })).status).toBe(200);
    origin.advance(60_000);
    const [first] = await devices(onMac.token);
    expect(first).toMatchObject({ device: "Chrome on Android", lastUsedAt: new Date(origin.now() - 60_000).toISOString() });
  });

  it("marks no device as this one for a session that no password opened (a sign-in link, a passkey)", async () => {
    const onMac = await signIn(alice, mac);
    await env.DB.prepare("UPDATE session SET device_hash = NULL WHERE token_hash = ?1")
      .bind(await hashToken(onMac.token))
      .run();
    expect((await devices(onMac.token)).map((device) => device.current)).toEqual([false]);
  });

  it("lets a locked account forget a device, as it may end sessions", async () => {
    const onPhone = await signIn(alice, phone);
    const onMac = await signIn(alice, mac);
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE handle = ?2").bind(origin.now(), alice.handle).run();
    expect((await forget(onMac.token, await idOf(onPhone.deviceToken))).status).toBe(200);
  });

  it("is held to the account security door: a session guessing the password gets few tries", async () => {
    const onMac = await signIn(alice, mac);
    const id = await idOf(onMac.deviceToken);
    const tight = { LIMIT_ACCOUNT_SECURITY: env.LIMIT_TEST_TIGHT } as Partial<Env>;
    const guess = () =>
      origin.call(`/api/account/devices/${id}/forget`, {
        headers: bearer(onMac.token),
        body: { password: "a wrong passphrase" },
        env: tight,
      });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await guess()).status).toBe(422);
    const limited = await guess();
    expect(limited.status).toBe(429);
    expect((await json(limited)).code).toBe("RATE_LIMITED");
  });

  it("refuses an id that is not one, naming it, and a request without a session", async () => {
    const onMac = await signIn(alice, mac);
    for (const id of ["dev_XYZ", `dev_${"a".repeat(31)}`, `ses_${"a".repeat(32)}`, `dev_${"A".repeat(32)}`]) {
      const refused = await forget(onMac.token, id);
      expect(refused.status).toBe(400);
      expect((await json(refused)).field).toBe("id");
    }
    expect((await origin.call("/api/account/devices", { method: "GET" })).status).toBe(401);
    expect((await origin.call(`/api/account/devices/dev_${"0".repeat(32)}/forget`, { body: { password: alice.password } })).status).toBe(
      401,
    );
  });
});
