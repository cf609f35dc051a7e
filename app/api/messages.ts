import type { ErrorCode } from "./error-codes";

/** What the user reads for each error code of the contract (one catalogue). */
export const errorMessages: Record<ErrorCode, string> = {
  BAD_REQUEST: "Please check what you entered.",
  UNAUTHENTICATED: "Please sign in again.",
  INVALID_CREDENTIALS: "That handle and password do not match an account.",
  NOT_FOUND: "We could not find that.",
  HANDLE_TAKEN: "That handle is taken. Choose another.",
  IDEMPOTENCY_KEY_REUSED: "This form was already sent with other details. Reload the page and try again.",
  IDEMPOTENCY_KEY_IN_USE: "This request is still being processed. Please wait a moment.",
  SIGN_IN_LOCKED: "Too many failed sign-ins. Please wait 15 minutes and try again.",
  INTERNAL_ERROR: "Something went wrong on our side. Please try again.",
  ORIGIN_UNAVAILABLE: "Paydesk cannot reach its service right now. Please try again in a moment.",
  ORIGIN_TIMEOUT: "The service took too long to answer. Please try again.",
};

/** A field-level message from the origin is specific and safe to show; otherwise the catalogue's. */
export function messageFor(code: ErrorCode, originMessage?: string, field?: string): string {
  if (code === "BAD_REQUEST" && field && originMessage) return originMessage;
  return errorMessages[code];
}
