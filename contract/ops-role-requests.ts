/**
 * A role that raises someone's rights needs a second admin
 * (docs/decisions/063-role-raises-need-a-second-admin.md): one admin asks, another approves,
 * which grants it, or rejects it. Lowering a role, or taking it away, is done at once.
 */
import { z } from "zod";
import { dayLongDecisionShape, operatorRoleSchema } from "./ops";
import { personSchema } from "./people";
import { hoursMs } from "./time-limits";

/** How long a request may wait for its decision: whoever is to hold the role is not vouched for longer. */
export const roleRequestOpenMs = hoursMs(24);

export const roleRequestSchema = z.strictObject({
  id: z.string(),
  /** Whoever would hold the role. */
  person: personSchema,
  role: operatorRoleSchema,
  /** The role they held when it was asked for: none, or one below. */
  roleBefore: operatorRoleSchema.nullable(),
  /** Why they need it: kept in the audit trail. */
  reason: z.string(),
  status: z.enum(["awaiting_approval", "approved", "rejected"]),
  /** Past `openUntil`, it is no longer approved: ask again. */
  ...dayLongDecisionShape,
  /**
   * Why a request still awaiting a decision can no longer be approved, only rejected: its day
   * has passed, the admin who asked is no longer an unlocked admin, or the person's role has
   * changed since; null while it can be (and once decided).
   */
  closed: z.enum(["day_passed", "asker_not_admin", "role_changed"]).nullable(),
  /** Whether the admin reading it may approve or reject it: a second admin to the asker, while it awaits a decision. */
  yoursToDecide: z.boolean(),
});
export type RoleRequest = z.infer<typeof roleRequestSchema>;

const roleRequestIdSchema = z.string().regex(/^rrq_[0-9a-f-]{36}$/, "Not a role request id.");
export const roleRequestIdParamSchema = z.strictObject({ id: roleRequestIdSchema });
