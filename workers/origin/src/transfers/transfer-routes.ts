import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import { createMiddleware } from "hono/factory";
import { transferBodySchema, transferReceiptSchema, type TransferReceipt } from "#contract/transfers";
import { hashToken, requiredBearerToken } from "../auth/bearer-token";
import { findSessionUser, liveSessionUserSql, renewSessionStatement, type SessionTime, sessionTime } from "../auth/sessions";
import { accountLocked, isLockRefusal } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import {
  keyedIdempotency,
  thisRequestsAnswer,
  recordAnswerOf,
  recordedAnswer,
  ReplayAnswer,
  requestHashOf,
  requireIdempotencyKey,
} from "../idempotency/idempotency";
import { isOverdraft, journalParts } from "../ledger/journal";
import { countDaily, doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { limitsOf, outsideDeployRange, textLimitsOf, textPastDeployLimit } from "../deploy-limits/deploy-limits";
import { chinaDay } from "./china-day";

const send = createRoute({
  method: "post",
  path: "/",
  summary: "Send money to another user",
  description:
    "The amount and the day's total are held to this deploy's limits (GET /api/limits), which may be tighter than the schema's: an amount outside them is 400 naming `amount`. The note is held to this deploy's length (GET /api/text-limits): a longer one is 400 naming `note`. A refused transfer tells whether its handle is someone's, so each refusal (but the sender's own lock) also counts against the look-up door's daily limits: past them it answers 429 RATE_LIMITED instead. A retry with the key of a transfer already answered replays that answer even past the burst limit.",
  security: bearerAuth,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: transferBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(transferReceiptSchema), "Sent"),
    400: errorContent(
      "A field is not valid, or the amount is outside this deploy's transfer limits (GET /api/limits), or the note is longer than it allows (GET /api/text-limits)",
    ),
    401: errorContent("UNAUTHENTICATED"),
    403: errorContent("ACCOUNT_LOCKED: the sender's account is locked"),
    404: errorContent("RECIPIENT_NOT_FOUND"),
    409: errorContent("RECIPIENT_UNAVAILABLE: the recipient's account is locked"),
    422: errorContent("INSUFFICIENT_FUNDS, TRANSFER_TO_SELF, DAILY_LIMIT_EXCEEDED or IDEMPOTENCY_KEY_REUSED"),
  },
});

const transfersLimit = doorLimit("transfers");

/**
 * The transfers door (docs/decisions/010-limits-on-every-door.md). The key is checked inside
 * the handler's one batch, not before the door as elsewhere: so a request the door refuses
 * looks for its key's answer first, and a retry after a lost answer replays it instead of
 * meeting the limit its first attempt used.
 */
const transfersDoor = createMiddleware<OriginEnv>(async (c, next) => {
  try {
    await transfersLimit(c, async () => {});
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "RATE_LIMITED")) throw error;
    const tokenHash = await hashToken(requiredBearerToken(c.req.header("Authorization")));
    const earlier = await thisRequestsAnswer(c, requireIdempotencyKey(c.req.header("Idempotency-Key")), {
      tokenHash,
      session: sessionTime(c.env, c.var.clock.now()),
    });
    if (earlier) return earlier;
    throw error;
  }
  await next();
});

export const transferRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
// Only what needs no database here: the session and the key are checked inside the handler's one batch.
transferRoutes.use(
  "/",
  async (c, next) => {
    requiredBearerToken(c.req.header("Authorization"));
    requireIdempotencyKey(c.req.header("Idempotency-Key"));
    await next();
  },
  transfersDoor,
);

type TransferAnswer = { code: "SUCCESS"; data: TransferReceipt };

/**
 * One round trip (docs/decisions/007-one-trip-transfers.md): the session, the recipient,
 * the daily limit, the money and the recorded answer are one batch. The transfer row,
 * right after its journal transaction's, names both sides as it finds them, so an unknown
 * session or recipient fails its NOT NULL and oneself its CHECK before any money moves;
 * the daily total and the wallets refuse what passes a limit; the answer's key refuses a
 * second effect. A batch that fails is explained by reads afterwards (`refusal`).
 */
function transferStatements(
  db: D1Database,
  t: {
    tokenHash: string;
    now: number;
    session: SessionTime;
    toHandle: string;
    amount: number;
    note: string;
    id: string;
    txId: string;
    key: string;
    requestHash: string;
    perDay: number;
  },
): D1PreparedStatement[] {
  const walletOf = (side: "from_user" | "to_user") => ({
    sql: `SELECT account.id FROM transfer JOIN account ON account.owner_id = transfer.${side} AND account.kind = 'user' WHERE transfer.id = ?`,
    params: [t.id],
  });
  const { opening: openTx, entries: entriesAndSeal } = journalParts(db, {
    id: t.txId,
    kind: "transfer",
    at: t.now,
    postings: [
      { account: walletOf("from_user"), amount: -t.amount },
      { account: walletOf("to_user"), amount: t.amount },
    ],
  });
  return [
    renewSessionStatement(db, t.tokenHash, t.session),
    openTx,
    db
      .prepare(
        `INSERT INTO transfer (id, from_user, to_user, amount, note, tx_id, created_at)
         VALUES (?, (${liveSessionUserSql}), (SELECT id FROM user WHERE handle = ?), ?, ?, ?, ?)`,
      )
      .bind(t.id, t.tokenHash, t.session.liveAfter, t.toHandle, t.amount, t.note, t.txId, t.now),
    // The daily total rises in the same batch; its CHECK refuses what would pass the limit.
    db
      .prepare(
        `INSERT INTO transfer_daily (user_id, day, total) SELECT from_user, ?2, amount FROM transfer WHERE id = ?1
         ON CONFLICT (user_id, day) DO UPDATE SET total = total + excluded.total`,
      )
      .bind(t.id, chinaDay(t.now)),
    // A deploy may set a tighter daily total than the CHECK's (docs/decisions/053-deploy-limits.md).
    assertInBatch(
      db,
      "the day's transfers within the deploy's limit",
      "(SELECT total FROM transfer_daily JOIN transfer ON transfer_daily.user_id = transfer.from_user WHERE transfer.id = ? AND transfer_daily.day = ?) <= ?",
      t.id,
      chinaDay(t.now),
      t.perDay,
    ),
    ...entriesAndSeal,
    recordAnswerOf(
      db,
      { key: t.key, requestHash: t.requestHash, status: 201, at: t.now },
      {
        sql: `SELECT transfer.from_user AS scope,
                json_object('code', 'SUCCESS', 'data', json_object(
                  'id', transfer.id,
                  'to', json_object('handle', recipient.handle, 'displayName', recipient.display_name),
                  'amount', transfer.amount, 'note', transfer.note, 'createdAt', ?)) AS body
              FROM transfer JOIN user AS recipient ON recipient.id = transfer.to_user WHERE transfer.id = ?`,
        params: [new Date(t.now).toISOString(), t.id],
      },
    ),
  ];
}

const refusalCauses =
  /transfer\.from_user|transfer\.to_user|transfer_not_to_self|transfer_daily_limit|batch_assertion|account_not_negative|account_locked|UNIQUE constraint failed: idempotency/;

transferRoutes.openapi(send, async (c) => {
  const { toHandle, amount, note } = c.req.valid("json");
  const now = c.var.clock.now();
  const session = sessionTime(c.env, now);
  const tokenHash = await hashToken(requiredBearerToken(c.req.header("Authorization")));
  const key = requireIdempotencyKey(c.req.header("Idempotency-Key"));
  const requestHash = await requestHashOf(c);
  const transferLimits = limitsOf(c.env).transfer;
  const outside =
    outsideDeployRange(amount, transferLimits, "amount") ?? textPastDeployLimit(note, textLimitsOf(c.env).transfer.note, "note", "A note");
  if (outside) {
    // A retry of a transfer answered before the deploy's limits changed hears its answer.
    const earlier = await thisRequestsAnswer(c, key, { tokenHash, session });
    if (earlier) return earlier as Response & TypedResponse<TransferAnswer, 201, "json">;
    throw outside;
  }
  const id = `trf_${crypto.randomUUID()}`;
  const txId = `tx_${crypto.randomUUID()}`;
  let results: D1Result[];
  try {
    results = await c.env.DB.batch(
      transferStatements(c.env.DB, {
        tokenHash,
        now,
        session,
        toHandle,
        amount,
        note,
        id,
        txId,
        key,
        requestHash,
        perDay: transferLimits.perDay,
      }),
    );
  } catch (error) {
    // Anything else (a lost connection: did it commit?) is not answered from here; a retry with the key is.
    if (!(error instanceof Error && refusalCauses.test(error.message))) throw error;
    return refusal(c, error, { tokenHash, session, key, requestHash, perDay: transferLimits.perDay });
  }
  const recorded = results.at(-1)?.results[0] as { body?: unknown } | undefined;
  if (typeof recorded?.body !== "string") throw new Error("The transfer committed without its answer.");
  return recordedAnswer(recorded.body, 201) as Response & TypedResponse<TransferAnswer, 201, "json">;
});

/** Why the batch was refused, read after it: the session, a twin's answer for the key, then the constraint that spoke. */
async function refusal(
  c: Context<OriginEnv>,
  error: Error,
  {
    tokenHash,
    session,
    key,
    requestHash,
    perDay,
  }: { tokenHash: string; session: SessionTime; key: string; requestHash: string; perDay: number },
): Promise<never> {
  const user = await findSessionUser(c.env.DB, tokenHash, session);
  if (!user) throw new ApiError("UNAUTHENTICATED", "Your session has ended. Sign in again.");
  const idempotency = keyedIdempotency(c, { scope: user.id, key, requestHash });
  // A twin with this key committed first: the batch may have failed on the key itself, which
  // no refusal below names (and the twin may have used the money or the limit).
  const twin = await idempotency.twinAnswer();
  if (twin) throw new ReplayAnswer(twin);
  // Any refusal but the sender's own lock tells whether the handle is someone's (404 or not):
  // it counts as a look-up, so transfers walk handles no faster than the look-up does.
  if (!user.locked) {
    try {
      await countDaily(c, "lookup", () => user.id);
    } catch (overLimit) {
      // A twin that committed since the read above still answers for this key.
      const committed = await idempotency.twinAnswer();
      if (committed) throw new ReplayAnswer(committed);
      throw overLimit;
    }
  }
  const { message } = error;
  if (isLockRefusal(error)) {
    if (user.locked) return idempotency.refuse(accountLocked(), { lasting: false });
    return idempotency.refuse(new ApiError("RECIPIENT_UNAVAILABLE", "That person cannot receive money right now.", "toHandle"), {
      lasting: false,
    });
  }
  if (message.includes("transfer_not_to_self")) {
    return idempotency.refuse(new ApiError("TRANSFER_TO_SELF", "You cannot send money to yourself.", "toHandle"));
  }
  if (message.includes("transfer.to_user")) {
    return idempotency.refuse(new ApiError("RECIPIENT_NOT_FOUND", "No Paydesk user has that handle.", "toHandle"), { lasting: false });
  }
  if (message.includes("transfer_daily_limit") || isFailedAssertion(error)) {
    return idempotency.refuse(
      new ApiError(
        "DAILY_LIMIT_EXCEEDED",
        `This would take you over the daily limit of ¥${(perDay / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })} sent.`,
        "amount",
      ),
      { lasting: false },
    );
  }
  if (isOverdraft(error)) {
    return idempotency.refuse(new ApiError("INSUFFICIENT_FUNDS", "Your available balance is not enough for this.", "amount"), {
      lasting: false,
    });
  }
  throw error;
}
