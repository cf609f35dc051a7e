import { afterEach, describe, expect, it, vi } from "vitest";
import { signIn } from "./account";

const user = {
  id: "usr_1",
  handle: "alice_01",
  displayName: "Alice Wang",
  balances: { available: 0, held: 0 },
  currency: "CNY",
  createdAt: "2026-11-27T00:00:00.000Z",
};
const token = "t".repeat(43);
const deviceToken = "d".repeat(43);

function originAnswers(data: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ code: "SUCCESS", data })),
  );
}

afterEach(() => vi.unstubAllGlobals());

// docs/decisions/061-known-devices.md: a page open while the origin and the edge deploy keeps signing in.
describe("the sign-in answer, as the page reads it", () => {
  const body = { handle: "alice_01", password: "correct horse battery" };

  it("takes the device token", async () => {
    originAnswers({ token, user, deviceToken });
    expect(await signIn(body)).toEqual({ token, user, deviceToken });
  });

  it("signs in when an origin from before known devices answers none", async () => {
    originAnswers({ token, user });
    expect(await signIn(body)).toEqual({ token, user });
  });

  it("signs in when the origin answers a field this page does not know yet", async () => {
    originAnswers({ token, user, deviceToken, secondFactor: "none" });
    expect(await signIn(body)).toMatchObject({ token, user, deviceToken });
  });

  it("still refuses an answer whose session it could not use", async () => {
    originAnswers({ token: "short", user, deviceToken });
    await expect(signIn(body)).rejects.toThrow();
  });
});
