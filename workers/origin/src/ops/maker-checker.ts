/**
 * What every request a second operator decides on shows of who asked and who decided
 * (refunds: docs/decisions/015-operator-refunds.md; code batches: 049), from the columns
 * each list selects under these names.
 */
export type DecisionColumns = {
  requested_at: number;
  decided_at: number | null;
  decision_note: string | null;
  requester_handle: string;
  requester_name: string;
  decider_handle: string | null;
  decider_name: string | null;
};

const iso = (at: number) => new Date(at).toISOString();

export function decisionFieldsOf(row: DecisionColumns) {
  return {
    requestedBy: { handle: row.requester_handle, displayName: row.requester_name },
    requestedAt: iso(row.requested_at),
    decidedBy:
      row.decider_handle === null || row.decider_name === null ? null : { handle: row.decider_handle, displayName: row.decider_name },
    decidedAt: row.decided_at === null ? null : iso(row.decided_at),
    decisionNote: row.decision_note,
  };
}
