import { beforeEach, describe, expect, it } from "vitest";
import { givePassword, resetDatabase, seedUser, testOrigin } from "../../test/origin-client";

// A password is 10 to 256 characters as people count them (code points), and one chosen now is
// well-formed Unicode; one chosen before that rule still signs in
// (docs/decisions/075-passwords-as-people-type-them.md).
const origin = testOrigin();
const fiveEmoji = "😀🔑🌙🍵🎋"; // 10 UTF-16 units, 5 characters
const tenEmoji = fiveEmoji.repeat(2);
const withLoneSurrogate = `\ud800${"x".repeat(12)}`;

beforeEach(resetDatabase);

type Answer = { code: string; field?: string; message?: string; data?: { token?: string } };

function register(handle: string, password: string) {
  return origin.call("/api/user/register", {
    body: { handle, password, displayName: "Lin" },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
}
const signIn = (handle: string, password: string) => origin.call("/api/user/login", { body: { handle, password } });

describe("a password", () => {
  it("is counted in characters: five emoji are too few, ten are enough, 256 astral characters fit and 257 do not", async () => {
    const short = await register("emoji_short", fiveEmoji);
    expect(short.status).toBe(400);
    expect((await short.json()) as Answer).toMatchObject({ field: "password", message: "A password has at least 10 characters." });
    expect((await signIn("emoji_short", fiveEmoji)).status).toBe(400);

    expect((await register("emoji_ten", tenEmoji)).status).toBe(201);
    expect((await signIn("emoji_ten", tenEmoji)).status).toBe(200);

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

  it("chosen now cannot hold a lone surrogate, which hashing would turn into U+FFFD like any other", async () => {
    const lone = await register("lone_surrogate", withLoneSurrogate);
    expect(lone.status).toBe(400);
    expect((await lone.json()) as Answer).toMatchObject({ field: "password" });
  });

  it("chosen before that rule with a lone surrogate still signs in, and cannot be chosen again", async () => {
    const legacy = await seedUser("legacy_01");
    await givePassword(legacy.id, withLoneSurrogate);
    const signedIn = await signIn("legacy_01", withLoneSurrogate);
    expect(signedIn.status).toBe(200);
    const token = ((await signedIn.json()) as Answer).data?.token ?? "";
    const change = (newPassword: string) =>
      origin.call("/api/account/password", {
        body: { currentPassword: withLoneSurrogate, newPassword },
        headers: { Authorization: `Bearer ${token}` },
      });
    const refused = await change(`\udc00${"y".repeat(12)}`);
    expect(refused.status).toBe(400);
    expect((await refused.json()) as Answer).toMatchObject({ field: "newPassword" });
    expect((await change(tenEmoji)).status).toBe(200);
    expect((await signIn("legacy_01", tenEmoji)).status).toBe(200);
  });
});
