import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { transferBodySchema, transferReceiptSchema } from "../../../../app/api/transfers";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "../http/openapi-routes";
import { validationHook } from "../http/validation";
import { idempotent } from "../idempotency/idempotency";
import { isOverdraft, journalStatements, walletAccountOf } from "../ledger/journal";
import type { OriginEnv } from "../origin-env";

const chinaStandardTimeMs = 8 * 60 * 60 * 1000;

/** The calendar day in China Standard Time (UTC+8, no daylight saving), as YYYY-MM-DD. */
export function chinaDay(at: number): string {
  return new Date(at + chinaStandardTimeMs).toISOString().slice(0, 10);
}

const send = createRoute({
  method: "post",
  path: "/",
  summary: "Send money to another user",
  security: bearerAuth,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: transferBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(transferReceiptSchema), "Sent"),
    400: errorContent("A field is not valid"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("RECIPIENT_NOT_FOUND"),
    422: errorContent("INSUFFICIENT_FUNDS, TRANSFER_TO_SELF, DAILY_LIMIT_EXCEEDED or IDEMPOTENCY_KEY_REUSED"),
  },
});

export const transferRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
transferRoutes.use("/", signedInUser, idempotent((c) => c.var.user.id));

transferRoutes.openapi(send, async (c) => {
  const sender = c.var.user;
  const { toHandle, amount, note } = c.req.valid("json");
  const db = c.env.DB;
  const now = c.var.clock.now();

  if (toHandle === sender.handle) {
    return c.var.idempotency.refuse(new ApiError("TRANSFER_TO_SELF", "You cannot send money to yourself.", "toHandle"));
  }
  const recipient = await db
    .prepare("SELECT id, handle, display_name FROM user WHERE handle = ?1")
    .bind(toHandle)
    .first<{ id: string; handle: string; display_name: string }>();
  if (!recipient) {
    return c.var.idempotency.refuse(new ApiError("RECIPIENT_NOT_FOUND", "No Paydesk user has that handle.", "toHandle"), {
      lasting: false,
    });
  }

  const id = `trf_${crypto.randomUUID()}`;
  const txId = `tx_${crypto.randomUUID()}`;
  try {
    return await c.var.idempotency.commit(
      [
        // The daily total rises in the same batch; its CHECK refuses what would pass the limit.
        db
          .prepare(
            `INSERT INTO transfer_daily (user_id, day, total) VALUES (?1, ?2, ?3)
             ON CONFLICT (user_id, day) DO UPDATE SET total = total + excluded.total`,
          )
          .bind(sender.id, chinaDay(now), amount),
        ...journalStatements(db, {
          id: txId,
          kind: "transfer",
          at: now,
          postings: [
            { account: walletAccountOf(sender.id), amount: -amount },
            { account: walletAccountOf(recipient.id), amount },
          ],
        }),
        db
          .prepare("INSERT INTO transfer (id, from_user, to_user, amount, note, tx_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
          .bind(id, sender.id, recipient.id, amount, note, txId, now),
      ],
      201,
      {
        code: "SUCCESS" as const,
        data: {
          id,
          to: { handle: recipient.handle, displayName: recipient.display_name },
          amount,
          note,
          createdAt: new Date(now).toISOString(),
        },
      },
    );
  } catch (error) {
    if (isOverdraft(error)) {
      return c.var.idempotency.refuse(new ApiError("INSUFFICIENT_FUNDS", "Your available balance is not enough for this.", "amount"), {
        lasting: false,
      });
    }
    if (error instanceof Error && error.message.includes("transfer_daily_limit")) {
      return c.var.idempotency.refuse(
        new ApiError("DAILY_LIMIT_EXCEEDED", "This would take you over the daily limit of ¥100,000.00 sent.", "amount"),
        { lasting: false },
      );
    }
    throw error;
  }
});
