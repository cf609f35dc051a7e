/** Reading the audit trail (docs/decisions/014-back-office-desks.md): finance and admins. */
import { z } from "zod";
import { handleSchema } from "./account";
import { pageCursorSchema } from "./openapi";
import { operatorRoleSchema } from "./ops";
import { filterMomentSchema } from "./ops-orders";

export const auditPageSize = 50;

/** The filters of the trail, the same for a page and for the CSV export. */
const auditFilters = {
  /** The operator's handle; an unknown handle is 404 (field actor). */
  actor: handleSchema.optional(),
  /** What was done, e.g. `operator.grant`, `codes.issue`. */
  action: z
    .string()
    .regex(/^[a-z0-9_.]{1,64}$/, "An action is lower-case letters, digits, `_` and `.`.")
    .optional(),
  /** What it was done to, e.g. `user`, `code_batch`. */
  objectType: z
    .string()
    .regex(/^[a-z0-9_]{1,32}$/, "An object type is lower-case letters, digits and `_`.")
    .optional(),
  objectId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/, "Not an object id.")
    .optional(),
  /** At or after. */
  from: filterMomentSchema.optional(),
  /** Before. */
  to: filterMomentSchema.optional(),
};

export const auditQuerySchema = z.strictObject({ ...auditFilters, cursor: pageCursorSchema.optional() });
/** The whole filtered trail: no cursor, it is streamed to the end. */
export const auditCsvQuerySchema = z.strictObject(auditFilters);
export type AuditFilters = z.infer<typeof auditCsvQuerySchema>;

const auditRowSchema = z.strictObject({
  id: z.number().int(),
  at: z.iso.datetime(),
  /** `operator`, `automation` (the ADMIN_TOKEN) or `cli` (`npm run operator`). */
  actorKind: z.enum(["operator", "automation", "cli"]),
  /** The operator's handle; null for automation and the command line. */
  actorHandle: z.string().nullable(),
  /** The operator's role when they acted. */
  actorRole: operatorRoleSchema.nullable(),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string(),
  /** The state before and after, as the JSON text recorded with the action. */
  before: z.string().nullable(),
  after: z.string().nullable(),
  reason: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageSchema = z.strictObject({
  rows: z.array(auditRowSchema).max(auditPageSize),
  nextCursor: z.string().nullable(),
});
