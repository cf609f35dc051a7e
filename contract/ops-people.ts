/** The back office's people desk (docs/decisions/014-back-office-desks.md): read-only. */
import { z } from "zod";
import { pageCursorSchema } from "./openapi";
import { operatorRoleSchema } from "./ops";
import { opsPaymentSchema, personRefSchema } from "./ops-orders";
import { recoveryLinkRequestSchema } from "./ops-recovery-links";
import { orderSchema } from "./orders";
import { ticketCategories, ticketStatuses } from "./support";
import { claimStatuses } from "./tasks";
import { userText } from "./text";
import { walletEntrySchema } from "./wallet";

/** At most this many people a page, and this many of each kind of thing on a person's page. */
export const peoplePageSize = 20;
export const personPageListSize = 20;

/** A person's id as the origin makes them (`usr_` and a UUID). */
const personIdSchema = z.string().regex(/^usr_[a-z0-9_-]{1,40}$/, "Not a person's id.");
export const personIdParamSchema = z.strictObject({ id: personIdSchema });

export const peopleSearchQuerySchema = z.strictObject({
  /**
   * A handle's beginning, a part of a display name (letter case ignored for A–Z), or a
   * person's exact id; `%` and `_` are plain characters. Absent or blank: everyone.
   */
  q: userText({ min: 0, max: 64, tooShort: "", tooLong: "A search has at most 64 characters." }).optional(),
  cursor: pageCursorSchema.optional(),
});

const minorUnitsHeld = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A person as the back office lists them. */
const opsPersonSchema = z.strictObject({
  id: z.string(),
  handle: z.string(),
  displayName: z.string(),
  createdAt: z.iso.datetime(),
  /** In fen. */
  balances: z.strictObject({ available: minorUnitsHeld, held: minorUnitsHeld }),
  /** The back office role the person holds, if any. */
  operatorRole: operatorRoleSchema.nullable(),
  /** When an admin locked the account (docs/decisions/013-account-locks.md); null when it is not locked. */
  lockedAt: z.iso.datetime().nullable(),
});
export type OpsPerson = z.infer<typeof opsPersonSchema>;

/** Recovery link requests, for admins alone: empty for every other role (docs/decisions/062-recovery-links-need-a-second-admin.md). */
const forAdmins = z.array(recoveryLinkRequestSchema).max(100);

export const peoplePageSchema = z.strictObject({
  people: z.array(opsPersonSchema).max(peoplePageSize),
  nextCursor: z.string().nullable(),
  /** Every recovery link request still waiting for its decision or its link, newest first. */
  openRecoveryLinkRequests: forAdmins,
});

const transferLineSchema = z.strictObject({
  id: z.string(),
  from: personRefSchema,
  to: personRefSchema,
  amount: z.number().int(),
  note: z.string(),
  createdAt: z.iso.datetime(),
});

const postedTaskSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(["awaiting_payment", "open", "closed", "cancelled"]),
  reward: z.number().int(),
  slots: z.number().int(),
  slotsTaken: z.number().int(),
  /** What is still held for the task, in fen. */
  escrowRemaining: z.number().int(),
  orderId: z.string(),
  deadline: z.iso.datetime(),
  createdAt: z.iso.datetime(),
});

const claimLineSchema = z.strictObject({
  id: z.string(),
  task: z.strictObject({ id: z.string(), title: z.string(), reward: z.number().int(), poster: personRefSchema }),
  status: z.enum(claimStatuses),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  submittedAt: z.iso.datetime().nullable(),
  decidedAt: z.iso.datetime().nullable(),
});

const ticketLineSchema = z.strictObject({
  id: z.string(),
  category: z.enum(ticketCategories),
  subject: z.string(),
  status: z.enum(ticketStatuses),
  orderId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** When a session began, was last used and ended: never its token or the token's hash. */
const sessionLineSchema = z.strictObject({
  /** "Chrome on Android", from the user agent it signed in with (docs/decisions/024-account-safety.md); null when unknown. */
  device: z.string().max(120).nullable(),
  /** Roughly where it signed in, from Cloudflare's view of the client; null when unknown. */
  place: z.string().max(160).nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  /** Whether it still signs the person in: not ended, and used within the deploy's idle limit (docs/decisions/057-deploy-session-idle-days.md). */
  live: z.boolean(),
});

const newest = <T extends z.ZodType>(line: T) => z.array(line).max(personPageListSize);

/** A person's page: who they are and the newest of everything they did, each list newest first. */
export const personPageSchema = z.strictObject({
  person: opsPersonSchema,
  walletEntries: newest(walletEntrySchema),
  orders: newest(orderSchema.extend({ payments: z.array(opsPaymentSchema) })),
  transfersSent: newest(transferLineSchema),
  transfersReceived: newest(transferLineSchema),
  tasksPosted: newest(postedTaskSchema),
  claims: newest(claimLineSchema),
  tickets: newest(ticketLineSchema),
  sessions: newest(sessionLineSchema),
  /** The person's recovery link requests still open, and those asked for in the last 7 days, newest first. */
  recoveryLinkRequests: forAdmins,
});
export type PersonPage = z.infer<typeof personPageSchema>;
