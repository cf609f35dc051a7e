/**
 * Operator roles and what each may do (docs/decisions/012-operators-and-audit.md): each role
 * may what the one below it may, and more.
 */
export const operatorRoles = ["support", "finance", "admin"] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/** The least role that holds each right. */
const rightsFrom = {
  readPeople: "support",
  workTickets: "support",
  // Does at once what the cron does on its own (docs/decisions/015-operator-refunds.md).
  askWechatPay: "support",
  refund: "finance",
  codes: "finance",
  ledger: "finance",
  // The audit trail names every operator and what they did: finance and admins, not support.
  readAudit: "finance",
  grantRoles: "admin",
  lockAccounts: "admin",
  recoveryLink: "admin",
} as const satisfies Record<string, OperatorRole>;

export type OperatorRight = keyof typeof rightsFrom;

export function may(role: OperatorRole, right: OperatorRight): boolean {
  return operatorRoles.indexOf(role) >= operatorRoles.indexOf(rightsFrom[right]);
}

/** Every right a role holds, in a stable order. */
export function rightsOf(role: OperatorRole): OperatorRight[] {
  return (Object.keys(rightsFrom) as OperatorRight[]).filter((right) => may(role, right));
}

/**
 * Whether holding `to` instead of `from` (no role: null) gives rights: such a change needs a
 * second admin (docs/decisions/063-role-raises-need-a-second-admin.md).
 */
export function raises(from: OperatorRole | null, to: OperatorRole): boolean {
  return operatorRoles.indexOf(to) > (from === null ? -1 : operatorRoles.indexOf(from));
}
