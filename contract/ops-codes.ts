/** The back office's code batches (docs/decisions/016-ticket-desk-and-code-batches.md). */
import { z } from "zod";
import { issueCodesBodySchema } from "./codes";
import { pageCursorSchema } from "./openapi";
import { reasonSchema } from "./ops";
import { personSchema } from "./people";
import { userText } from "./text";

/** What a batch is for, so that the list says it without the codes (which are never kept). */
const noteSchema = userText({ min: 1, max: 200, tooShort: "Say what these codes are for.", tooLong: "A note has at most 200 characters." });

/** Amounts in fen, as everywhere (docs/rules-and-limits.md, Money); the limits are those of every code. */
export const issueCodeBatchBodySchema = z.strictObject({ ...issueCodesBodySchema.shape, note: noteSchema });

const codeBatchIdSchema = z.string().regex(/^batch_[0-9a-f-]{36}$/, "Not a code batch id.");
export const codeBatchIdParamSchema = z.strictObject({ id: codeBatchIdSchema });

export const codeBatchListQuerySchema = z.strictObject({
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: pageCursorSchema.optional(),
});

/**
 * A batch and where its codes are. Every code is in exactly one of `redeemed`,
 * `unredeemed` (still redeemable), `voided` (not redeemed when the batch was voided) and
 * `expired` (not redeemed before the expiry): the four add up to `count`.
 */
export const codeBatchSchema = z.strictObject({
  id: z.string(),
  value: z.number().int(),
  count: z.number().int(),
  redeemed: z.number().int().min(0),
  unredeemed: z.number().int().min(0),
  voided: z.number().int().min(0),
  expired: z.number().int().min(0),
  /** Null for batches issued before notes, by automation or from the command line. */
  note: z.string().nullable(),
  /** The operator who issued it; null for automation (ADMIN_TOKEN) and the command line. */
  issuedBy: personSchema.nullable(),
  issuedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  voidedAt: z.iso.datetime().nullable(),
  voidedBy: personSchema.nullable(),
});
export type CodeBatch = z.infer<typeof codeBatchSchema>;

export const codeBatchPageSchema = z.strictObject({
  batches: z.array(codeBatchSchema),
  nextCursor: z.string().nullable(),
});

/** The new batch with its codes in clear: shown in this answer only (only their hashes are kept). */
export const issuedCodeBatchSchema = z.strictObject({
  batch: codeBatchSchema,
  codes: z.array(z.string()),
  /** The same codes as CSV (RFC 4180, CRLF): `code,value,expires_at`, the value in fen. */
  csv: z.string(),
});

export const voidCodeBatchBodySchema = z.strictObject({ reason: reasonSchema });

/**
 * A batch that waited for a second operator (docs/decisions/049-code-batches-need-a-second-operator.md):
 * past what one operator may issue alone in 24 hours. `approved` may be issued, once, by whoever
 * asked; `issued` names the batch it became.
 */
export const codeBatchRequestSchema = z.strictObject({
  id: z.string(),
  value: z.number().int(),
  count: z.number().int(),
  expiresAt: z.iso.datetime(),
  note: z.string(),
  status: z.enum(["awaiting_approval", "approved", "rejected", "issued"]),
  requestedBy: personSchema,
  requestedAt: z.iso.datetime(),
  decidedBy: personSchema.nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionNote: z.string().nullable(),
  batch: z.string().nullable(),
  /**
   * Whether the operator reading it may decide on it: it waits, they did not ask for it, and
   * they are a second operator to whoever did. Past its expiry, that is only to reject it.
   */
  yoursToDecide: z.boolean(),
});
export type CodeBatchRequest = z.infer<typeof codeBatchRequestSchema>;

/** What issuing answers when the batch waits: the request, and the sums that made it wait (fen). */
export const waitingCodeBatchSchema = z.strictObject({
  request: codeBatchRequestSchema,
  /** What one operator may issue alone in 24 hours (CODE_BATCH_APPROVAL_THRESHOLD). */
  approvalThreshold: z.number().int(),
  /** What this operator issued alone in the 24 hours before. */
  issuedAlone: z.number().int(),
});

const codeBatchRequestIdSchema = z.string().regex(/^cbr_[0-9a-f-]{36}$/, "Not a code batch request id.");
export const codeBatchRequestIdParamSchema = z.strictObject({ id: codeBatchRequestIdSchema });
