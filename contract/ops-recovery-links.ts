/**
 * Recovery links need a second admin (docs/decisions/062-recovery-links-need-a-second-admin.md):
 * one admin asks, another approves or rejects, and whoever asked issues the link, once.
 */
import { z } from "zod";
import { dayLongDecisionShape } from "./ops";
import { personSchema } from "./people";
import { hoursMs } from "./time-limits";

/** How long a request may wait for its decision and its link: an identity check is not fresh for longer. */
export const recoveryLinkRequestOpenMs = hoursMs(24);

export const recoveryLinkRequestSchema = z.strictObject({
  id: z.string(),
  /** The person whose account the link would recover. */
  person: personSchema.extend({ id: z.string() }),
  /** How the asking admin checked who the person is. */
  reason: z.string(),
  status: z.enum(["awaiting_approval", "approved", "rejected", "issued"]),
  /** Past `openUntil`, it is neither approved nor issued: ask again. */
  ...dayLongDecisionShape,
  issuedAt: z.iso.datetime().nullable(),
  /**
   * Whether the admin reading it may decide on it: it waits, they did not ask for it, it would
   * not recover their own account, and they are a second admin to whoever asked. Past
   * `openUntil`, that is only to reject it.
   */
  yoursToDecide: z.boolean(),
});
export type RecoveryLinkRequest = z.infer<typeof recoveryLinkRequestSchema>;

const recoveryLinkRequestIdSchema = z.string().regex(/^rlr_[0-9a-f-]{36}$/, "Not a recovery link request id.");
export const recoveryLinkRequestIdParamSchema = z.strictObject({ id: recoveryLinkRequestIdSchema });
