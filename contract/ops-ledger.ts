/** The ledger desk (docs/decisions/014-back-office-desks.md): finance and admins (right ledger). */
import { z } from "zod";
import { filterMomentSchema } from "./ops-orders";

/** The ledger's invariants, checked now (workers/origin/src/ledger/invariants.ts). */
export const ledgerCheckSchema = z.strictObject({
  violations: z.array(
    z.strictObject({
      /** The invariant broken, in words. */
      invariant: z.string(),
      /** The row that breaks it, as the check's query read it. */
      detail: z.unknown(),
    }),
  ),
  checkedAt: z.iso.datetime(),
});

/** Ids are `tx_<uuid>`; seeds and older rows use other forms (`tx_seed_…`). */
export const journalTxIdParamSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, "Not a journal transaction id."),
});

const ledgerEntrySchema = z.strictObject({
  id: z.number().int(),
  accountId: z.string(),
  /** `user` (a wallet), `escrow`, `world` or `revenue`. */
  accountKind: z.enum(["user", "escrow", "world", "revenue"]),
  /** The wallet's owner; null for an account that is not a user's wallet. */
  owner: z.strictObject({ id: z.string(), handle: z.string(), displayName: z.string() }).nullable(),
  bucket: z.enum(["available", "held"]),
  /** Fen; positive into the account, negative out of it. */
  amount: z.number().int(),
});

export const journalTxSchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  createdAt: z.iso.datetime(),
  /** Its seal exists: the transaction was closed balanced. */
  sealed: z.boolean(),
  entries: z.array(ledgerEntrySchema),
  /** What the money movement belongs to, where the database records it (null otherwise). */
  belongsTo: z.strictObject({
    transferId: z.string().nullable(),
    orderId: z.string().nullable(),
    paymentId: z.string().nullable(),
    refundRequestId: z.string().nullable(),
    /** A WeChat Pay refund's out_refund_no: the money into the clearing account or out of it. */
    wechatRefundNo: z.string().nullable(),
    claimId: z.string().nullable(),
    /** The task of a claim's capture or of an escrow release. */
    taskId: z.string().nullable(),
    /** The batch of the prepaid code redeemed (never the code or its hash). */
    codeBatchId: z.string().nullable(),
  }),
});
export type JournalTx = z.infer<typeof journalTxSchema>;

/** The longest range one export covers. */
const ledgerExportMaxDays = 366;

/** Entries of the journal transactions created in [from, to): both required, `to` after `from`, at most 366 days. */
export const ledgerEntriesCsvQuerySchema = z
  .strictObject({
    /** Created at or after. */
    from: filterMomentSchema,
    /** Created before. */
    to: filterMomentSchema,
  })
  .superRefine(({ from, to }, context) => {
    const span = Date.parse(to) - Date.parse(from);
    if (!(span > 0)) context.addIssue({ code: "custom", path: ["to"], message: "to must be after from.", input: to });
    else if (span > ledgerExportMaxDays * 24 * 60 * 60 * 1000)
      context.addIssue({ code: "custom", path: ["to"], message: `A range is at most ${ledgerExportMaxDays} days.`, input: to });
  });
