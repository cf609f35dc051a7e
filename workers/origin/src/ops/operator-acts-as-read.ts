/**
 * An operator's action refused in its own batch because its operator no longer holds the role
 * the door read, or was locked, meanwhile (migration 0036, docs/decisions/056-operator-acts-as-read.md).
 * Nothing of the batch was written; the operator hears 403, and a retry meets the door again.
 */
import { ApiError } from "../http/answer";

export const isOperatorNoLongerActing = (error: unknown) => error instanceof Error && error.message.includes("operator_no_longer_acts");

export const operatorNoLongerActing = () =>
  new ApiError(
    "FORBIDDEN",
    "Your operator role changed, or your account was locked, while this was being done: nothing was done. Reload to see what you may do now.",
  );
