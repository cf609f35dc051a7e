import { pageCursorSchema } from "./openapi";
import { z } from "zod";

/**
 * What a line of the wallet's history is, seen from the wallet's owner. One line per
 * journal transaction that touched the wallet (docs/decisions/003-ledger.md):
 *
 * - `code_redeem`: a prepaid code redeemed (available +);
 * - `transfer_in` / `transfer_out`: money from / to another user (available ±);
 * - `recharge`: an online recharge credited (available +);
 * - `task_budget`: a task's budget paid from the wallet (available −, held +);
 * - `task_reward`: a reward received for approved work (available +);
 * - `task_reward_paid`: a reward paid out of my task's escrow (held −);
 * - `escrow_refund`: escrow my task no longer needs, back to my wallet (held −, available +);
 * - `refund`: a payment refunded (available +);
 * - `other`: a movement this version of the contract does not name yet.
 */
const walletEntryKinds = [
  "code_redeem",
  "transfer_in",
  "transfer_out",
  "recharge",
  "task_budget",
  "task_reward",
  "task_reward_paid",
  "escrow_refund",
  "refund",
  "other",
] as const;
export type WalletEntryKind = (typeof walletEntryKinds)[number];

const fen = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

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
});
export type WalletEntry = z.infer<typeof walletEntrySchema>;

export const walletEntriesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: pageCursorSchema.optional(),
});

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
