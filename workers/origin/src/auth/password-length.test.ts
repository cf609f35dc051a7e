import { beforeEach, describe, expect, it } from "vitest";
import { givePassword, resetDatabase, seedUser, testOrigin } from "../../test/origin-client";

// A password's length is counted in characters (code points) as people count them, for a
// password chosen since 2026-11-28; one chosen before, counted in UTF-16 units, still signs in
// (docs/decisions/075-password-length-in-characters.md).
const origin = testOrigin();
const fiveEmoji = "😀🔑🌙🍵🎋"; // 10 UTF-16 units, 5 characters
const tenEmoji = fiveEmoji.repeat(2);

beforeEach(resetDatabase);

type Answer = { code: string; field?: string; message?: string; data?: { token?: string } };

function register(handle: string, password: string) {
  return origin.call("/api/user/register", {
    body: { handle, password, displayName: "Lin" },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
}
const signIn = (handle: string, password: string) => origin.call("/api/user/login", { body: { handle, password } });

describe("a password's length", () => {
  it("is counted in characters when chosen: five emoji are too few, ten are enough, 256 astral characters fit", async () => {
    const short = await register("emoji_short", fiveEmoji);
    expect(short.status).toBe(400);
    expect((await short.json()) as Answer).toMatchObject({ field: "password", message: "A password has at least 10 characters." });

    expect((await register("emoji_ten", tenEmoji)).status).toBe(201);
    expect((await signIn("emoji_ten", tenEmoji)).status).toBe(200);
    expect((await register("cjk_ten", "我的密码很长很长的呢")).status).toBe(201);

    // 256 characters of two UTF-16 units each: 512 units, within the limit as people count.
    const longest = "𠀀".repeat(256);
    expect((await register("astral_max", longest)).status).toBe(201);
    expect((await signIn("astral_max", longest)).status).toBe(200);
    const tooLong = await register("astral_over", "𠀀".repeat(257));
    expect((await tooLong.json()) as Answer).toMatchObject({
      code: "BAD_REQUEST",
      field: "password",
      message: "A password has at most 256 characters.",
    });
  });

  it("refuses a lone surrogate in a new password, which hashing would turn into U+FFFD like any other", async () => {
    const lone = await register("lone_surrogate", `\ud800${"x".repeat(12)}`);
    expect(lone.status).toBe(400);
    expect((await lone.json()) as Answer).toMatchObject({ field: "password" });
  });

  it("still lets a password chosen under the old count sign in, and a change to a new one is counted the new way", async () => {
    const legacy = await seedUser("legacy_01");
    await givePassword(legacy.id, fiveEmoji);
    const signedIn = await signIn("legacy_01", fiveEmoji);
    expect(signedIn.status).toBe(200);
    const token = ((await signedIn.json()) as Answer).data?.token ?? "";
    const change = (newPassword: string) =>
      origin.call("/api/account/password", {
        body: { currentPassword: fiveEmoji, newPassword },
        headers: { Authorization: `Bearer ${token}` },
      });
    const refused = await change("🍵🎋🌙🔑😀");
    expect(refused.status).toBe(400);
    expect((await refused.json()) as Answer).toMatchObject({ field: "newPassword" });
    expect((await change(tenEmoji)).status).toBe(200);
    expect((await signIn("legacy_01", tenEmoji)).status).toBe(200);
  });

  it("given to sign in, a short password is a wrong one (401), and an empty one is refused as malformed", async () => {
    await register("short_try", "long enough password");
    expect((await signIn("short_try", "short")).status).toBe(401);
    const empty = await signIn("short_try", "");
    expect(empty.status).toBe(400);
    expect((await empty.json()) as Answer).toMatchObject({ field: "password" });
  });
});
