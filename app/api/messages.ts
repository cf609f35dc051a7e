import type { ErrorCode } from "./error-codes";

/** What the user reads for each error code of the contract (one catalogue). */
export const errorMessages: Record<ErrorCode, string> = {
  BAD_REQUEST: "Please check what you entered.",
  UNAUTHENTICATED: "Please sign in again.",
  INVALID_CREDENTIALS: "That handle and password do not match an account.",
  NOT_FOUND: "We could not find that.",
  FORBIDDEN: "You are not allowed to do that.",
  HANDLE_TAKEN: "That handle is taken. Choose another.",
  CODE_ALREADY_USED: "This code has already been used.",
  CODE_NOT_VALID: "That is not a valid code. Check each character and try again.",
  CODE_EXPIRED: "This code has expired.",
  INSUFFICIENT_FUNDS: "Your available balance is not enough for this.",
  TRANSFER_TO_SELF: "You cannot send money to yourself.",
  DAILY_LIMIT_EXCEEDED: "This would take you over the daily limit of ¥100,000.00 sent.",
  RECIPIENT_NOT_FOUND: "No Paydesk user has that handle.",
  ORDER_NOT_PENDING: "This order is already paid or closed.",
  WALLET_NOT_ALLOWED: "A recharge is paid online, not from the wallet.",
  DEADLINE_OUT_OF_RANGE: "Choose a deadline between 1 hour and 30 days from now.",
  TASK_NOT_CLAIMABLE: "This task cannot be claimed: it is full, closed, past its deadline or your own.",
  ALREADY_CLAIMED: "You have already claimed this task.",
  CLAIM_EXPIRED: "The time to submit this claim has run out.",
  CLAIM_NOT_SUBMITTED: "This claim is not waiting for a check.",
  TASK_NOT_CANCELLABLE: "This task has already closed.",
  TICKET_CLOSED: "This ticket is closed. Open a new one if you still need help.",
  IDEMPOTENCY_KEY_REUSED: "This form was already sent with other details. Reload the page and try again.",
  IDEMPOTENCY_KEY_IN_USE: "This request is still being processed. Please wait a moment.",
  SIGN_IN_LOCKED: "Too many failed sign-ins. Please wait 15 minutes and try again.",
  REDEEM_LOCKED: "Too many wrong codes. Please wait 10 minutes and try again.",
  RATE_LIMITED: "Too many messages were sent from here. Please wait a while and try again.",
  WECHAT_PAY_NOT_CONFIGURED: "WeChat Pay is not available on this Paydesk. Choose another way to pay.",
  WECHAT_PAY_FLOW_NOT_AVAILABLE: "This way of paying with WeChat Pay is not available here. Try another.",
  WECHAT_PAY_REFUSED: "WeChat Pay could not start this payment. Please try again later or choose another way to pay.",
  WECHAT_PAY_UNAVAILABLE: "WeChat Pay did not answer in time. Please try again.",
  INTERNAL_ERROR: "Something went wrong on our side. Please try again.",
  ORIGIN_UNAVAILABLE: "Paydesk cannot reach its service right now. Please try again in a moment.",
  ORIGIN_TIMEOUT: "The service took too long to answer. Please try again.",
};

/** A field-level message from the origin is specific and safe to show; otherwise the catalogue's. */
export function messageFor(code: ErrorCode, originMessage?: string, field?: string): string {
  if (code === "BAD_REQUEST" && field && originMessage) return originMessage;
  return errorMessages[code];
}
