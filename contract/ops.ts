/** The back office's API (docs/decisions/012-operators-and-audit.md). */
import { z } from "zod";
import { handleSchema } from "./account";
import { personSchema } from "./people";
import { userText } from "./text";

export const operatorRoleSchema = z.enum(["support", "finance", "admin"]);

/** Why an operator did something: kept in the audit trail beside what was done. */
export const reasonSchema = userText({
  min: 1,
  max: 500,
  multiline: true,
  tooShort: "Say why.",
  tooLong: "A reason has at most 500 characters.",
});

/**
 * Deciding on what another operator asked for, maker-checker (a refund, a code batch):
 * approving takes an optional note, rejecting a reason.
 */
export const approvalBodySchema = z.strictObject({
  note: userText({ min: 0, max: 500, multiline: true, tooShort: "", tooLong: "A note has at most 500 characters." }).optional(),
});
export const rejectionBodySchema = z.strictObject({ reason: reasonSchema });

/**
 * Who asked for a request that waits a day for a second admin (a recovery link, a role), until
 * when, and who decided, with their note.
 */
export const dayLongDecisionShape = {
  requestedBy: personSchema,
  requestedAt: z.iso.datetime(),
  openUntil: z.iso.datetime(),
  decidedBy: personSchema.nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionNote: z.string().nullable(),
};

/**
 * How many requests wait for this operator's decision, still open, by kind: those the lists
 * say are theirs to decide (`yoursToDecide`). Zero for a kind their role does not decide.
 */
const awaitingYouSchema = z.strictObject({
  refunds: z.number().int().nonnegative(),
  /** Settlements of refunds paid twice that wait for a second operator (docs/decisions/072-large-settlements-need-a-second-operator.md). */
  refundSettlements: z.number().int().nonnegative(),
  codeBatches: z.number().int().nonnegative(),
  recoveryLinks: z.number().int().nonnegative(),
  roles: z.number().int().nonnegative(),
});
export type AwaitingYou = z.infer<typeof awaitingYouSchema>;

export const operatorSelfSchema = z.strictObject({
  handle: z.string(),
  displayName: z.string(),
  role: operatorRoleSchema,
  rights: z.array(z.string()),
  awaitingYou: awaitingYouSchema,
});

export const operatorSchema = z.strictObject({
  handle: z.string(),
  displayName: z.string(),
  role: operatorRoleSchema,
  grantedAt: z.iso.datetime(),
  /** The handle of the admin who granted it (who asked, for a raise), or `cli` for `npm run operator`. */
  grantedBy: z.string(),
  /**
   * The handle of the second admin who approved it, for a role that raised its holder's rights
   * (docs/decisions/063-role-raises-need-a-second-admin.md); null for a lowered role, the
   * command line's, and those granted before.
   */
  approvedBy: z.string().nullable(),
});
export type Operator = z.infer<typeof operatorSchema>;

export const grantRoleBodySchema = z.strictObject({ handle: handleSchema, role: operatorRoleSchema, reason: reasonSchema });
export const revokeRoleBodySchema = z.strictObject({ reason: reasonSchema });
export const operatorHandleParamSchema = z.strictObject({ handle: handleSchema });

/** A person as the back office names them in a path: their account id. */
export const personIdParamSchema = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "An account id.") });

/** Why an admin locks, unlocks or signs out a person: kept in the audit trail. */
export const accountActionBodySchema = z.strictObject({ reason: reasonSchema });

export const accountControlSchema = z.strictObject({
  id: z.string(),
  handle: z.string(),
  locked: z.boolean(),
  lockedAt: z.iso.datetime().nullable(),
  /** Sessions ended by this action (sign out everywhere; zero otherwise). */
  sessionsEnded: z.number().int().nonnegative(),
});
export type OperatorSelf = z.infer<typeof operatorSelfSchema>;

/**
 * An admin asks for a recovery link after checking who the person is
 * (docs/decisions/024-account-safety.md); another admin approves it (decision 062).
 */
export const recoveryLinkBodySchema = z.strictObject({
  personId: personIdParamSchema.shape.id,
  /** How the person's identity was checked: kept in the audit trail. */
  reason: reasonSchema,
});
