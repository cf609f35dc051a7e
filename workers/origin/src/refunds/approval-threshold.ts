/**
 * REFUND_APPROVAL_THRESHOLD (fen, ¥1,000.00 unless configured): past it, what one operator
 * gives back waits for a second operator. It bounds the refunds of one payment
 * (docs/decisions/015-operator-refunds.md) and what Paydesk bears, or finds paid to its own
 * account, in settling one refund paid twice (docs/decisions/072-large-settlements-need-a-second-operator.md).
 */
const defaultApprovalThreshold = 100_000;

export function approvalThresholdOf(env: Pick<Env, "REFUND_APPROVAL_THRESHOLD">): number {
  const configured = Number(env.REFUND_APPROVAL_THRESHOLD);
  return env.REFUND_APPROVAL_THRESHOLD && Number.isSafeInteger(configured) && configured >= 0 ? configured : defaultApprovalThreshold;
}
