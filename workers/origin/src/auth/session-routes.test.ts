import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createOriginApp } from "../app";
import { hashToken } from "./bearer-token";
import { sessionIdleLimitMs } from "./sessions";

const day = 24 * 60 * 60 * 1000;
const start = Date.parse("2026-11-01T00:00:00Z");
const token = "tok_0123456789abcdefghijklmnopqrstuvwxyz";

let now = start;
const app = createOriginApp({ clock: { now: () => now } });

function postSession(headers: Record<string, string> = {}) {
  return app.request("/api/user/session", { method: "POST", headers }, env);
}

beforeEach(async () => {
  now = start;
  await env.DB.batch([
    env.DB.prepare("DELETE FROM session"),
    env.DB.prepare("DELETE FROM account"),
    env.DB.prepare("DELETE FROM user"),
    env.DB.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES ('u1', 'li_wei', 'Li Wei', ?1)").bind(start - day),
    env.DB.prepare("INSERT INTO account (id, owner_id, kind, available, held) VALUES ('a1', 'u1', 'user', 12345, 600)"),
    env.DB.prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at) VALUES (?1, 'u1', ?2, ?2)").bind(
      await hashToken(token),
      start,
    ),
  ]);
});

describe("POST /api/user/session", () => {
  it("answers the signed-in user's info for a live token", async () => {
    const response = await postSession({ Authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      code: "SUCCESS",
      data: {
        id: "u1",
        handle: "li_wei",
        displayName: "Li Wei",
        balances: { available: 12345, held: 600 },
        currency: "CNY",
        createdAt: new Date(start - day).toISOString(),
      },
    });
  });

  it.each([
    ["no Authorization header", {}],
    ["an unknown token", { Authorization: "Bearer tok_unknown_unknown_unknown_1234" }],
    ["a malformed header", { Authorization: `Basic ${token}` }],
    ["a token with forbidden characters", { Authorization: "Bearer <script>alert(1)</script>" }],
  ])("answers 401 UNAUTHENTICATED for %s", async (_, headers) => {
    const response = await postSession(headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("stores only the token's hash", async () => {
    const rows = await env.DB.prepare("SELECT token_hash FROM session").all<{ token_hash: string }>();
    expect(rows.results.map((row) => row.token_hash)).toEqual([await hashToken(token)]);
    expect(JSON.stringify(rows.results)).not.toContain(token);
  });

  it("expires a token unused for 30 days, and renews one in use", async () => {
    now = start + sessionIdleLimitMs - 1;
    expect((await postSession({ Authorization: `Bearer ${token}` })).status).toBe(200);
    // Used just now: another 30 days from here.
    now += sessionIdleLimitMs - 1;
    expect((await postSession({ Authorization: `Bearer ${token}` })).status).toBe(200);
    now += sessionIdleLimitMs;
    expect((await postSession({ Authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("refuses a token whose session ended (signed out)", async () => {
    await env.DB.prepare("UPDATE session SET ended_at = ?1").bind(start).run();
    expect((await postSession({ Authorization: `Bearer ${token}` })).status).toBe(401);
  });
});

describe("the origin's error answers", () => {
  it("answers unknown API routes with 404 NOT_FOUND in the envelope", async () => {
    const response = await app.request("/api/nothing-here", {}, env);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});
