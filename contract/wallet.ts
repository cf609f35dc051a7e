import { pageCursorSchema } from "./openapi";
import { z } from "zod";
import { walletEntryKinds, walletExportMaxDays } from "./value-lists";

export type WalletEntryKind = (typeof walletEntryKinds)[number];

const fen = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** What a receipt page is about (contract/receipts.ts); a line has one when its money has a receipt. */
export const receiptKinds = ["transfer", "payment", "refund", "reward"] as const;
export type ReceiptKind = (typeof receiptKinds)[number];

export const walletEntrySchema = z.strictObject({
  /** The journal transaction's id. */
  id: z.string().max(64),
  kind: z.enum(walletEntryKinds),
  /** The change of my available balance in fen: credit positive, debit negative (0 when only held money moved). */
  amount: fen,
  /** The change of my held money (task escrow) in fen. */
  held: fen,
  /** The other user: recipient or sender of a transfer; the worker or poster of a task reward. */
  counterparty: z.strictObject({ handle: z.string().max(32), displayName: z.string().max(64) }).nullable(),
  /** The task the money belongs to (budget, reward, escrow refund). */
  task: z.strictObject({ id: z.string().max(64), title: z.string().max(80) }).nullable(),
  /** The order paid or refunded. */
  orderId: z.string().max(64).nullable(),
  /** A transfer's note ("" when none was written). */
  note: z.string().max(140).nullable(),
  createdAt: z.iso.datetime(),
  /** My available balance in fen right after this line's transaction (lines above it in the full history included, whatever the filter). */
  balanceAfter: fen,
  /** The receipt of this line's money: a transfer, an order's payment, a refund or a task's reward; null for other lines. */
  receipt: z.strictObject({ kind: z.enum(receiptKinds), id: z.string().max(80) }).nullable(),
});
export type WalletEntry = z.infer<typeof walletEntrySchema>;

/** A calendar day in China Standard Time (UTC+8), the day the app counts in everywhere. */
const chinaDaySchema = z.iso.date({ error: "Enter a date as YYYY-MM-DD." });

const dayMs = 24 * 60 * 60 * 1000;

/** The days from `from` to `to`, both included; `to` not before `from`. */
function daySpanIssue(
  { from, to }: { from?: string | undefined; to?: string | undefined },
  context: z.RefinementCtx,
  maxDays = Number.POSITIVE_INFINITY,
): void {
  if (from === undefined || to === undefined) return;
  const days = (Date.parse(to) - Date.parse(from)) / dayMs + 1;
  if (days < 1) context.addIssue({ code: "custom", path: ["to"], message: "to must not be before from.", input: to });
  else if (days > maxDays) context.addIssue({ code: "custom", path: ["to"], message: `A range is at most ${maxDays} days.`, input: to });
}

export const walletEntriesQuerySchema = z
  .strictObject({
    limit: z.coerce.number().int().min(1).max(50).default(20),
    /** Opaque: the `nextCursor` of the previous page (send the same filters with it). */
    cursor: pageCursorSchema.optional(),
    /** Only lines of this kind. */
    kind: z.enum(walletEntryKinds).optional(),
    /** `in`: lines that raised my available balance; `out`: lines that lowered it (lines that move only held money are neither). */
    direction: z.enum(["in", "out"]).optional(),
    /** From this day on (China Standard Time), included. */
    from: chinaDaySchema.optional(),
    /** Up to this day (China Standard Time), included. */
    to: chinaDaySchema.optional(),
  })
  .superRefine((query, context) => daySpanIssue(query, context));
export type WalletEntriesFilter = Pick<z.infer<typeof walletEntriesQuerySchema>, "kind" | "direction" | "from" | "to">;

/** A statement's CSV: the lines of the days from `from` to `to` (China Standard Time), both included, at most 366 days. */
export const walletExportQuerySchema = z
  .strictObject({
    from: chinaDaySchema,
    to: chinaDaySchema,
  })
  .superRefine((query, context) => daySpanIssue(query, context, walletExportMaxDays));

/** The columns of the statement's CSV, in order (docs/screens.md, `/wallet`). */
export const walletExportColumns = [
  "time",
  "kind",
  "counterparty_handle",
  "counterparty_name",
  "description",
  "order_id",
  "amount_yuan",
  "amount_fen",
  "held_change_fen",
  "balance_after_yuan",
  "balance_after_fen",
  "transaction_id",
] as const;

/** Money into and out of my available balance per calendar month (China Standard Time), oldest month first. */
export const walletMonthsSchema = z.strictObject({
  months: z
    .array(
      z.strictObject({
        /** YYYY-MM. */
        month: z.string().regex(/^\d{4}-\d{2}$/),
        /** Fen in: the sum of the month's lines that raised the available balance. */
        in: z.number().int().nonnegative(),
        /** Fen out, as a positive number: the sum of the month's lines that lowered it. */
        out: z.number().int().nonnegative(),
      }),
    )
    .max(12),
});
export type WalletMonths = z.infer<typeof walletMonthsSchema>;

export const walletEntryPageSchema = z.strictObject({
  entries: z.array(walletEntrySchema).max(50),
  nextCursor: z.string().max(200).nullable(),
});
export type WalletEntryPage = z.infer<typeof walletEntryPageSchema>;

/** What the home screen shows beside the balance (docs/screens.md, `/`). */
export const walletSummarySchema = z.strictObject({
  balances: z.strictObject({
    available: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    held: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  }),
  /** My claims still to submit: status `claimed`, not yet expired. */
  claimsToSubmit: z.number().int().nonnegative(),
  /** Submissions to my tasks waiting for my check (what `GET /api/claims?view=to_check` lists). */
  submissionsToCheck: z.number().int().nonnegative(),
});
export type WalletSummary = z.infer<typeof walletSummarySchema>;
