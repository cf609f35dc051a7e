/** The back office's API (docs/decisions/012-operators-and-audit.md). */
import { z } from "zod";
import { handleSchema } from "./account";
import { userText } from "./text";

const operatorRoleSchema = z.enum(["support", "finance", "admin"]);

/** Why an operator did something: kept in the audit trail beside what was done. */
export const reasonSchema = userText({
  min: 1,
  max: 500,
  multiline: true,
  tooShort: "Say why.",
  tooLong: "A reason has at most 500 characters.",
});

export const operatorSelfSchema = z.strictObject({
  handle: z.string(),
  displayName: z.string(),
  role: operatorRoleSchema,
  rights: z.array(z.string()),
});

export const operatorSchema = z.strictObject({
  handle: z.string(),
  displayName: z.string(),
  role: operatorRoleSchema,
  grantedAt: z.iso.datetime(),
  /** The handle of the admin who granted it, or `cli` for `npm run operator`. */
  grantedBy: z.string(),
});
export type Operator = z.infer<typeof operatorSchema>;

export const grantRoleBodySchema = z.strictObject({ handle: handleSchema, role: operatorRoleSchema, reason: reasonSchema });
export const revokeRoleBodySchema = z.strictObject({ reason: reasonSchema });
export const operatorHandleParamSchema = z.strictObject({ handle: handleSchema });
