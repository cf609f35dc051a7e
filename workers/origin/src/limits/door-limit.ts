import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import { z } from "zod";
import { hashToken, requiredBearerToken } from "../auth/bearer-token";
import { ApiError } from "../http/answer";
import type { OriginEnv } from "../origin-env";
import { clientAddress } from "../support/contact-limits";
import { chinaDay } from "../transfers/china-day";
import { burstPeriodSeconds, type Door, type DoorName, doors } from "./doors";

const chinaStandardTimeMs = 8 * 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

/** Seconds until the next midnight in China Standard Time, when the daily counts start again. */
export function secondsUntilNextChinaDay(now: number): number {
  const sinceMidnight = (now + chinaStandardTimeMs) % dayMs;
  return Math.ceil((dayMs - sinceMidnight) / 1000);
}

function inWords(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

function tooMany(seconds: number): ApiError {
  return new ApiError("RATE_LIMITED", `Too many requests. Try again in ${inWords(seconds)}.`, undefined, {
    "Retry-After": String(seconds),
  });
}

// Operators may change a door's daily limits without a deploy of code: LIMITS_PER_DAY is JSON
// such as {"signUp":{"address":50}} (README, Limits). It changes the counts a door keeps and
// adds none (a signed-out door has no user to count); anything else in it is ignored.
const perDayOverrides = z.record(
  z.string(),
  z.object({ user: z.number().int().positive(), address: z.number().int().positive() }).partial(),
);

function perDayOf(env: Env, name: DoorName): Partial<Record<"user" | "address", number>> {
  const door: Door = doors[name];
  let override: Partial<Record<"user" | "address", number>> | undefined;
  try {
    override = perDayOverrides.safeParse(JSON.parse(env.LIMITS_PER_DAY || "{}")).data?.[name];
  } catch {
    override = undefined;
  }
  const kept = Object.entries(door.perDay ?? {}).map(([by, limit]) => [by, override?.[by as "user" | "address"] ?? limit]);
  return Object.fromEntries(kept);
}

/**
 * One more request through a door today, counted per key; answers the counts including it.
 * One UPSERT per key in one batch: D1 runs batches one at a time, so requests sent at once
 * are counted one by one and exactly the limit's number get a count within it.
 */
async function countToday(db: D1Database, door: DoorName, keys: string[], day: string): Promise<number[]> {
  const count = (key: string) =>
    db
      .prepare(
        `INSERT INTO limit_counter (door, key, day, count) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (door, key, day) DO UPDATE SET count = count + 1 RETURNING count`,
      )
      .bind(door, key, day);
  const [only] = keys;
  if (keys.length === 1 && only !== undefined) return [(await count(only).first<number>("count")) ?? Number.POSITIVE_INFINITY];
  const results = await db.batch<{ count: number }>(keys.map(count));
  return results.map((result) => result.results[0]?.count ?? Number.POSITIVE_INFINITY);
}

/**
 * The door's limits, before its handler and after its session and idempotency checks (so a
 * replayed answer is not counted): the burst limit of its Rate Limiting binding, then its
 * daily counts. Over either, 429 RATE_LIMITED with Retry-After in seconds.
 */
export const doorLimit = (name: DoorName) =>
  createMiddleware<OriginEnv>(async (c, next) => {
    const door = doors[name];
    const burstKey =
      door.burstBy === "session"
        ? `session:${await hashToken(requiredBearerToken(c.req.header("Authorization")))}`
        : limitKey(c, door.burstBy, () => c.var.user.id);
    const { success } = await c.env[door.burst].limit({ key: `${name}:${burstKey}` });
    if (!success) throw tooMany(burstPeriodSeconds);
    await countDaily(c, name, () => c.var.user.id);
    await next();
  });

/** What a limit counts by: the user, or the client's address. */
function limitKey(c: Context<OriginEnv>, by: "user" | "address", userId: () => string): string {
  return by === "user" ? `user:${userId()}` : `address:${clientAddress(c.var.clientIp)}`;
}

/**
 * One more request through a door's daily limits, by user and client address; over either,
 * 429 until midnight in China. Also for work that counts as another door's (a refused
 * transfer as a look-up), where the user is known only inside the handler.
 */
export async function countDaily(c: Context<OriginEnv>, name: DoorName, userId: () => string): Promise<void> {
  const perDay = Object.entries(perDayOf(c.env, name)) as ["user" | "address", number][];
  if (perDay.length === 0) return;
  const now = c.var.clock.now();
  const keys = perDay.map(([by]) => limitKey(c, by, userId));
  const counts = await countToday(c.env.DB, name, keys, chinaDay(now));
  if (perDay.some(([, limit], index) => (counts[index] ?? Number.POSITIVE_INFINITY) > limit)) throw tooMany(secondsUntilNextChinaDay(now));
}

/** For a path that both lists (GET) and creates (POST): only creating counts. */
export const doorLimitOnPost = (name: DoorName) => {
  const limit = doorLimit(name);
  return createMiddleware<OriginEnv>(async (c, next) => (c.req.method === "POST" ? limit(c, next) : next()));
};
