import type { Context, TypedResponse } from "hono";
import { createMiddleware } from "hono/factory";
import { idempotencyKeyPattern } from "#contract/openapi";
import { liveSessionUserSql, type SessionTime } from "../auth/sessions";
import type { OriginEnv } from "../origin-env";
import { ApiError, errorBody, errorStatusOf } from "../http/answer";

export type Idempotency = {
  /**
   * Commits the effect and the answer in one batch, and answers. A concurrent twin that
   * committed first wins: its answer is given instead, and this effect rolls back.
   * `replayAs` is for an answer that may be given once only (codes in clear): the refusal
   * recorded in its place, which a retry with the key hears instead.
   */
  commit<T, S extends 200 | 201 | 202>(
    effect: D1PreparedStatement[],
    status: S,
    body: T,
    options?: { replayAs?: ApiError },
  ): Promise<Response & TypedResponse<T, S, "json">>;
  /**
   * Refuses. A lasting refusal (one this request will always get) is recorded, so a
   * retry hears it again; one that can change (funds, limits, a handle not yet taken)
   * is not, so a retry after topping up can succeed. Either way, a twin with this key that
   * committed first is answered instead.
   */
  refuse(error: ApiError, options?: { lasting?: boolean }): Promise<never>;
  /**
   * The answer a twin with this key committed meanwhile, replayed, or null: for a handler
   * that answers otherwise than through `commit` or `refuse` (which ask it themselves).
   */
  twinAnswer(): Promise<Response | null>;
};

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

type StoredAnswer = { request_hash: string; status: number; body: string };

/** Marks an answer replayed from the record rather than made by this request. */
const replayedHeader = "Idempotent-Replayed";

/** Whether an answer was replayed: a twin or an earlier attempt made the effect, not this request. */
export const isReplayed = (response: Response) => response.headers.has(replayedHeader);

function replay(stored: StoredAnswer): Response {
  return new Response(stored.body, {
    status: stored.status,
    headers: { "Content-Type": "application/json", [replayedHeader]: "true" },
  });
}

function isIdempotencyConflict(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: idempotency\.scope, idempotency\.key/.test(error.message);
}

/** The request's Idempotency-Key, or a 400 naming the header when it is missing or malformed. */
export function requireIdempotencyKey(key: string | undefined): string {
  if (!key || !idempotencyKeyPattern.test(key)) {
    throw new ApiError(
      "BAD_REQUEST",
      "Send an Idempotency-Key header of 8 to 128 letters, digits or _.:- with this request.",
      "Idempotency-Key",
    );
  }
  return key;
}

/**
 * What makes two requests the same request: method, path and body — but never a password.
 * The hash is kept a day with the key, and a fast hash of a body that holds a password would
 * let anyone who reads the table test guesses at it far faster than PBKDF2 allows
 * (docs/decisions/024-account-safety.md). So password fields count by presence only: a retry
 * with the same key and another password is the same request and gets the first answer.
 */
export async function requestHashOf(c: Context): Promise<string> {
  return sha256Hex(`${c.req.method} ${c.req.path}\n${withoutPasswords(await c.req.text())}`);
}

function withoutPasswords(body: string): string {
  if (!/password/i.test(body)) return body;
  try {
    return JSON.stringify(JSON.parse(body), (key, value) => (/password/i.test(key) ? "" : value));
  } catch {
    return body;
  }
}

/**
 * The idempotency of one request: its key within `scope` (the user, or an anonymous
 * route), and the hash of the request it must match.
 */
export function keyedIdempotency(
  c: Context<OriginEnv>,
  { scope, key, requestHash }: { scope: string; key: string; requestHash: string },
): Idempotency {
  const db = c.env.DB;
  const read = () =>
    db.prepare("SELECT request_hash, status, body FROM idempotency WHERE scope = ?1 AND key = ?2").bind(scope, key).first<StoredAnswer>();
  const answerFor = (stored: StoredAnswer) => {
    if (stored.request_hash !== requestHash) {
      throw new ApiError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used for a different request.");
    }
    return replay(stored);
  };
  const record = (status: number, body: unknown) =>
    db
      .prepare("INSERT INTO idempotency (scope, key, request_hash, status, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(scope, key, requestHash, status, JSON.stringify(body), c.var.clock.now());
  const afterConflict = async (error: unknown): Promise<Response> => {
    const twin = isIdempotencyConflict(error) ? await read() : null;
    if (!twin) throw error;
    return answerFor(twin);
  };
  return {
    async commit<T, S extends 200 | 201 | 202>(effect: D1PreparedStatement[], status: S, body: T, options?: { replayAs?: ApiError }) {
      const recorded = options?.replayAs ? record(errorStatusOf(options.replayAs), errorBody(options.replayAs)) : record(status, body);
      try {
        await db.batch([...effect, recorded]);
      } catch (error) {
        // The twin's answer was produced from the same request by the same code.
        return (await afterConflict(error)) as Response & TypedResponse<T, S, "json">;
      }
      return c.json(body, status) as Response & TypedResponse<T, S, "json">;
    },
    async twinAnswer() {
      const twin = await read();
      return twin ? answerFor(twin) : null;
    },
    async refuse(error, { lasting = true } = {}) {
      if (!lasting) {
        // What can change may have been changed by a twin with this key that committed while
        // this request ran (the money it moved, the limit it used): its answer stands.
        const twin = await this.twinAnswer();
        if (twin) throw new ReplayAnswer(twin);
        throw error;
      }
      try {
        await record(errorStatusOf(error), errorBody(error)).run();
      } catch (conflict) {
        // A twin answered first; a replay of it is thrown as this request's answer.
        throw new ReplayAnswer(await afterConflict(conflict));
      }
      throw error;
    },
  };
}

/**
 * The answer recorded for `key` under a user's scope (or a live session's user, read in the
 * same query), when it was for this very request; for a refusal that comes before the key is
 * checked (a locked account, the transfers door: docs/decisions/013-account-locks.md, 010).
 * Another request's answer is not this one's: null, and the refusal stands.
 */
export async function thisRequestsAnswer(
  c: Context<OriginEnv>,
  key: string,
  owner: { userId: string } | { tokenHash: string; session: SessionTime },
): Promise<Response | null> {
  const select = "SELECT request_hash, status, body FROM idempotency WHERE key = ? AND scope = ";
  const query =
    "userId" in owner
      ? c.env.DB.prepare(`${select}?`).bind(key, owner.userId)
      : c.env.DB.prepare(`${select}(${liveSessionUserSql})`).bind(key, owner.tokenHash, owner.session.liveAfter);
  const stored = await query.first<StoredAnswer>();
  return stored && stored.request_hash === (await requestHashOf(c)) ? replay(stored) : null;
}

/**
 * The statement that records an answer a batch works out only as it runs (a route that
 * folds its reads into its write, docs/decisions/007-one-trip-transfers.md). `source` is a
 * query yielding one row of `scope` and `body` (JSON text); no row, no record. It returns
 * the body, which is the request's answer.
 */
export function recordAnswerOf(
  db: D1Database,
  { key, requestHash, status, at }: { key: string; requestHash: string; status: number; at: number },
  source: { sql: string; params: unknown[] },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO idempotency (scope, key, request_hash, status, body, created_at)
       SELECT scope, ?, ?, ?, body, ? FROM (${source.sql}) RETURNING body`,
    )
    .bind(key, requestHash, status, at, ...source.params);
}

/** An answer recorded by `recordAnswerOf`, answered as the first answer. */
export function recordedAnswer(body: string, status: number): Response {
  return new Response(body, { status, headers: { "Content-Type": "application/json" } });
}

/**
 * docs/api-contract.md: a request that moves money or creates something carries an
 * Idempotency-Key. The same key with the same request answers the first answer again;
 * with another request it is refused (422). The handler commits its effect with
 * `c.var.idempotency.commit(...)`, which records the answer in the same batch, so a retry
 * after a lost answer either replays or collides on the key — never a second effect.
 */
export const idempotent = (scopeOf: (c: { var: OriginEnv["Variables"] }) => string) =>
  createMiddleware<OriginEnv>(async (c, next) => {
    const key = requireIdempotencyKey(c.req.header("Idempotency-Key"));
    const idempotency = keyedIdempotency(c, { scope: scopeOf(c), key, requestHash: await requestHashOf(c) });
    const earlier = await idempotency.twinAnswer();
    if (earlier) return earlier;
    c.set("idempotency", idempotency);
    await next();
  });

/** Carries a replayed answer out of a handler (see `refuse`); onError answers it as is. */
export class ReplayAnswer extends Error {
  constructor(readonly response: Response) {
    super("replayed idempotent answer");
  }
}

/**
 * For a change that is safe to repeat but whose first answer a client may lose (approve,
 * reject, cancel): with an Idempotency-Key, as `idempotent` — a retry with the same key and
 * request replays the first answer; without one, the handler's commit is a plain batch and
 * a repeat meets the state it left (409 where the change cannot happen twice).
 */
export const idempotentWhenKeyed = (scopeOf: Parameters<typeof idempotent>[0]) => {
  const keyed = idempotent(scopeOf);
  return createMiddleware<OriginEnv>(async (c, next) => {
    if (c.req.header("Idempotency-Key") !== undefined) return keyed(c, next);
    c.set("idempotency", {
      async commit<T, S extends 200 | 201 | 202>(effect: D1PreparedStatement[], status: S, body: T) {
        if (effect.length > 0) await c.env.DB.batch(effect);
        return c.json(body, status) as Response & TypedResponse<T, S, "json">;
      },
      async refuse(error) {
        throw error;
      },
      async twinAnswer() {
        return null;
      },
    });
    await next();
  });
};

/** For a path that both lists (GET) and creates (POST): only the creating requests need a key. */
export const idempotentPosts = (scopeOf: Parameters<typeof idempotent>[0]) => {
  const creating = idempotent(scopeOf);
  return createMiddleware<OriginEnv>(async (c, next) => (c.req.method === "POST" ? creating(c, next) : next()));
};
