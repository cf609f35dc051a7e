import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { minutesMs } from "#contract/time-limits";
import { normalizeCode, redeemCodeAnswerSchema, redeemCodeBodySchema } from "#contract/codes";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { waitInWords } from "../http/wait-words";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotent, isReplayed } from "../idempotency/idempotency";
import { journalStatements, walletAccountOf, worldAccount } from "../ledger/journal";
import { locksOf } from "../deploy-limits/deploy-limits";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { codeHash } from "./code-values";

/**
 * The wrong tries of a person (?1) that locked redeeming and still lock it at ?2: each one the
 * fifth (?5) or later within the window (?3) that ends at it, made less than the lock's length
 * (?4) ago. The lock runs from such a try, not from the first of the five, so it lasts its
 * whole length however the five were spread.
 */
const lockingFailures = `SELECT locking.at FROM code_failure AS locking
  WHERE locking.user_id = ?1 AND locking.at > ?2 - ?4
    AND (SELECT count(*) FROM code_failure AS earlier
         WHERE earlier.user_id = ?1 AND earlier.at > locking.at - ?3 AND earlier.at <= locking.at) >= ?5`;

const redeem = createRoute({
  method: "post",
  path: "/redeem",
  summary: "Redeem a prepaid code into the wallet",
  security: bearerAuth,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: redeemCodeBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(redeemCodeAnswerSchema), "Redeemed; the wallet is credited"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    409: errorContent("CODE_ALREADY_USED"),
    422: errorContent("CODE_NOT_VALID, CODE_EXPIRED, CODE_VOIDED (its batch was voided) or IDEMPOTENCY_KEY_REUSED"),
    429: errorContent("REDEEM_LOCKED"),
  },
});

/** An operator voided the code's batch (docs/decisions/016-ticket-desk-and-code-batches.md). */
const codeVoided = () => new ApiError("CODE_VOIDED", "This code has been withdrawn and can no longer be used.", "code");

export const codeRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
codeRoutes.use(
  "/redeem",
  signedInUser,
  idempotent((c) => c.var.user.id),
  doorLimit("redeem"),
);

codeRoutes.openapi(redeem, async (c) => {
  const user = c.var.user;
  const db = c.env.DB;
  const now = c.var.clock.now();
  // docs/rules-and-limits.md: 5 wrong tries in 10 minutes lock redeeming for that user for 10
  // minutes, or the deploy's tighter figures (docs/decisions/054-deploy-locks.md).
  const lock = locksOf(c.env).redeem;
  const lockingBinds = [user.id, now, minutesMs(lock.windowMinutes), minutesMs(lock.lockMinutes), lock.failures] as const;
  // Each try is reserved as a failure before anything else (a success removes it):
  // parallel guesses cannot all pass the limit, and a locked user learns nothing about codes.
  const attempt = await db
    .prepare(`INSERT INTO code_failure (user_id, at) SELECT ?1, ?2 WHERE NOT EXISTS (${lockingFailures}) RETURNING rowid`)
    .bind(...lockingBinds)
    .first<{ rowid: number }>();
  if (!attempt) {
    const lockedAt = await db
      .prepare(`SELECT max(at) AS at FROM (${lockingFailures})`)
      .bind(...lockingBinds)
      .first<number>("at");
    const seconds = Math.max(1, Math.ceil(((lockedAt ?? now) + minutesMs(lock.lockMinutes) - now) / 1000));
    throw new ApiError("REDEEM_LOCKED", `Too many wrong codes. Try again in ${waitInWords(seconds)}.`, undefined, {
      "Retry-After": String(seconds),
    });
  }

  const notAWrongTry = () => db.prepare("DELETE FROM code_failure WHERE rowid = ?1").bind(attempt.rowid).run();

  const plain = normalizeCode(c.req.valid("json").code);
  const hash = await codeHash(plain ?? "");
  const code = await db
    .prepare(
      `SELECT prepaid_code.value, prepaid_code.expires_at, code_redemption.user_id AS redeemed_by, code_batch.voided_at
       FROM prepaid_code LEFT JOIN code_redemption USING (code_hash) LEFT JOIN code_batch ON code_batch.id = prepaid_code.batch
       WHERE prepaid_code.code_hash = ?1`,
    )
    .bind(hash)
    .first<{ value: number; expires_at: number; redeemed_by: string | null; voided_at: number | null }>();

  const refusal = !code
    ? new ApiError("CODE_NOT_VALID", "That is not a valid code.", "code")
    : code.redeemed_by !== null
      ? new ApiError("CODE_ALREADY_USED", "This code has already been used.", "code")
      : code.voided_at !== null
        ? codeVoided()
        : code.expires_at <= now
          ? new ApiError("CODE_EXPIRED", "This code has expired.", "code")
          : null;
  if (refusal || !code) {
    // Only a code that is no code is a wrong try: one used (even by this person), voided or
    // expired was typed right, and must not bring the lock nearer.
    if (code) await notAWrongTry();
    return c.var.idempotency.refuse(refusal ?? new ApiError("CODE_NOT_VALID", "That is not a valid code.", "code"));
  }

  const txId = `tx_${crypto.randomUUID()}`;
  try {
    const answer = await c.var.idempotency.commit(
      [
        ...journalStatements(db, {
          id: txId,
          kind: "code_redemption",
          at: now,
          postings: [
            { account: worldAccount, amount: -code.value },
            { account: walletAccountOf(user.id), amount: code.value },
          ],
        }),
        // A success is not a wrong try.
        db.prepare("DELETE FROM code_failure WHERE rowid = ?1").bind(attempt.rowid),
        // The primary key makes the code single-use, even for two requests at once.
        db.prepare("INSERT INTO code_redemption (code_hash, user_id, tx_id, at) VALUES (?1, ?2, ?3, ?4)").bind(hash, user.id, txId, now),
      ],
      201,
      { code: "SUCCESS" as const, data: { value: code.value, redeemedAt: new Date(now).toISOString() } },
    );
    // A twin with this key redeemed it first (a double click): this is its answer, not a wrong try.
    if (isReplayed(answer)) await notAWrongTry();
    return answer;
  } catch (error) {
    await notAWrongTry();
    // Voided while this request ran: the trigger of migration 0018 refused it (decision 014).
    if (error instanceof Error && error.message.includes("the code was voided")) {
      return c.var.idempotency.refuse(codeVoided());
    }
    if (error instanceof Error && error.message.includes("the code has expired")) {
      return c.var.idempotency.refuse(new ApiError("CODE_EXPIRED", "This code has expired.", "code"));
    }
    if (error instanceof Error && error.message.includes("code_redemption.code_hash")) {
      return c.var.idempotency.refuse(new ApiError("CODE_ALREADY_USED", "This code has already been used.", "code"));
    }
    throw error;
  }
});
