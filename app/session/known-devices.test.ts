import { describe, expect, it } from "vitest";
import { memoryStore } from "../storage/memory-store-for-tests";
import { deviceTokenFor, dropDeviceToken, keepDeviceToken } from "./known-devices";

const token = (n: number) => `${"t".repeat(41)}${String(n).padStart(2, "0")}`;

describe("the device tokens a browser keeps", () => {
  it("answers the token kept for a handle, and none for another", () => {
    const store = memoryStore();
    keepDeviceToken(store, "alice_01", token(1));
    keepDeviceToken(store, "bob_0001", token(2));
    expect(deviceTokenFor(store, "alice_01")).toBe(token(1));
    expect(deviceTokenFor(store, "bob_0001")).toBe(token(2));
    expect(deviceTokenFor(store, "carol_01")).toBeUndefined();
  });

  it("replaces a handle's token with the one answered last", () => {
    const store = memoryStore();
    keepDeviceToken(store, "alice_01", token(1));
    keepDeviceToken(store, "alice_01", token(3));
    expect(deviceTokenFor(store, "alice_01")).toBe(token(3));
    expect(JSON.parse(store.data["paydesk:known-devices"] ?? "")).toEqual([["alice_01", token(3)]]);
  });

  it("drops a handle's token, and only that one, once its device is forgotten", () => {
    const store = memoryStore();
    keepDeviceToken(store, "alice_01", token(1));
    keepDeviceToken(store, "bob_0001", token(2));
    dropDeviceToken(store, "alice_01");
    expect(deviceTokenFor(store, "alice_01")).toBeUndefined();
    expect(deviceTokenFor(store, "bob_0001")).toBe(token(2));
    dropDeviceToken(store, "carol_01");
    expect(JSON.parse(store.data["paydesk:known-devices"] ?? "")).toEqual([["bob_0001", token(2)]]);
  });

  it("keeps the five handles signed in with most recently", () => {
    const store = memoryStore();
    for (let n = 1; n <= 6; n += 1) keepDeviceToken(store, `handle_${n}`, token(n));
    keepDeviceToken(store, "handle_2", token(12));
    keepDeviceToken(store, "handle_7", token(7));
    expect(deviceTokenFor(store, "handle_1")).toBeUndefined();
    expect(deviceTokenFor(store, "handle_3")).toBeUndefined();
    expect(deviceTokenFor(store, "handle_2")).toBe(token(12));
    for (const n of [4, 5, 6, 7]) expect(deviceTokenFor(store, `handle_${n}`)).toBe(token(n));
  });

  it("sends nothing rather than something the origin would refuse", () => {
    expect(deviceTokenFor(memoryStore({ "paydesk:known-devices": "{not json" }), "alice_01")).toBeUndefined();
    expect(deviceTokenFor(memoryStore({ "paydesk:known-devices": '{"alice_01":"x"}' }), "alice_01")).toBeUndefined();
    expect(deviceTokenFor(memoryStore({ "paydesk:known-devices": '[["alice_01","too short"]]' }), "alice_01")).toBeUndefined();
    const store = memoryStore();
    keepDeviceToken(store, "alice_01", undefined);
    keepDeviceToken(store, "alice_01", "not a device token");
    expect(store.data).toEqual({});
  });
});
