/**
 * The one catalogue of stable error codes (docs/api-contract.md). Pages translate these
 * into human messages; workers answer with them. Add codes, never rename them.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  /** The body did not arrive in time (it stalled, or was shorter than its Content-Length). */
  REQUEST_TIMEOUT: 408,
  /** The path exists, but not for this method: the answer's `Allow` lists those that do. */
  METHOD_NOT_ALLOWED: 405,
  /** The body is larger than the route accepts (64 KB). */
  PAYLOAD_TOO_LARGE: 413,
  /** The body is not sent as `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  /** The handle and recovery code (or the recovery link) match no unused code (or live link). */
  INVALID_RECOVERY: 401,
  /** The current password given to change the password or make recovery codes is not the account's. */
  WRONG_PASSWORD: 422,
  /** The new password is the one the account has now. */
  PASSWORD_UNCHANGED: 422,
  /** Recovery codes (or a recovery link) are shown once, in the first answer; a retry of that request, or issuing the link again, hears this instead. */
  ALREADY_SHOWN: 409,
  /** An operator cannot ask for, approve or reject a recovery link for their own account, nor ask for, decide on, return or settle a refund of their own order: another must. */
  NOT_FOR_YOURSELF: 403,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  /** The origin was called directly, not through the edge worker (and not by WeChat Pay's signed notifications). */
  EDGE_REQUIRED: 403,
  /** An operator has locked this account: it may read and talk to support, nothing else. */
  ACCOUNT_LOCKED: 403,
  HANDLE_TAKEN: 409,
  /** The change would leave Paydesk without an admin operator. */
  LAST_ADMIN: 409,
  /** The account an admin would lock is locked already (or one they would unlock is not locked). */
  ALREADY_LOCKED: 409,
  NOT_LOCKED: 409,
  CODE_ALREADY_USED: 409,
  CODE_NOT_VALID: 422,
  CODE_EXPIRED: 422,
  /** The code's batch was voided by an operator: it can no longer be redeemed. */
  CODE_VOIDED: 422,
  /** The codes of a batch are shown once, in the first answer; a retry of that request hears this instead. */
  CODES_ALREADY_SHOWN: 409,
  /** The code batch is voided already. */
  CODE_BATCH_VOIDED: 409,
  /** Every code of the batch has been redeemed: there is nothing left to void. */
  CODE_BATCH_SPENT: 409,
  INSUFFICIENT_FUNDS: 422,
  TRANSFER_TO_SELF: 422,
  DAILY_LIMIT_EXCEEDED: 422,
  RECIPIENT_NOT_FOUND: 404,
  /** The recipient's account is locked: it cannot receive money now. */
  RECIPIENT_UNAVAILABLE: 409,
  ORDER_NOT_PENDING: 409,
  /** Another start of this order's WeChat Pay payment is still waiting for WeChat Pay: try again in a few seconds. */
  PAYMENT_STARTING: 409,
  WALLET_NOT_ALLOWED: 422,
  DEADLINE_OUT_OF_RANGE: 422,
  TASK_NOT_CLAIMABLE: 409,
  ALREADY_CLAIMED: 409,
  CLAIM_EXPIRED: 409,
  CLAIM_NOT_SUBMITTED: 409,
  /** Giving up a claim that was submitted, decided, or ended already. */
  CLAIM_NOT_WITHDRAWABLE: 409,
  /** Submitting proof for a claim its worker gave up. */
  CLAIM_WITHDRAWN: 409,
  TASK_NOT_CANCELLABLE: 409,
  /** The task kept changing (claims made or moving) while it was being cancelled: nothing changed; try again. */
  TASK_CHANGED: 409,
  /** Other admins kept changing a person's role while this change was read and written: nothing changed; try again. */
  ROLE_CHANGED: 409,
  TICKET_CLOSED: 409,
  /** A ticket is assigned to an operator only: that handle holds no role, or its account is locked. */
  NOT_AN_OPERATOR: 422,
  /** Someone else changed the ticket while this change was being made: reload it and decide again. */
  TICKET_CHANGED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  SIGN_IN_LOCKED: 429,
  REDEEM_LOCKED: 429,
  RATE_LIMITED: 429,
  /** WeChat Pay is not configured on this Paydesk (no WECHATPAY_* secrets). */
  WECHAT_PAY_NOT_CONFIGURED: 422,
  /** The WeChat Pay flow asked for (e.g. jsapi) is not offered here. */
  WECHAT_PAY_FLOW_NOT_AVAILABLE: 422,
  /** WeChat Pay refused to create the payment; trying later may help. */
  WECHAT_PAY_REFUSED: 502,
  /** WeChat Pay did not answer clearly; the same request may be sent again (the same WeChat order is reused). */
  WECHAT_PAY_UNAVAILABLE: 503,
  /** JSAPI needs the payer's openid, which WeChat's sign-in gives: sign in with WeChat (POST /api/payments/wechat/sign-in), then ask again. */
  WECHAT_SIGN_IN_NEEDED: 409,
  /** The WeChat sign-in is unknown, used, older than ten minutes or someone else's, or WeChat refused its code: start it again. */
  WECHAT_SIGN_IN_EXPIRED: 422,
  /** More than is left to refund of the payment (what was paid, less refunds made or awaiting approval). */
  REFUND_EXCEEDS_PAYMENT: 422,
  /** The order has nothing to refund: not paid, or a wallet-paid task budget already back in the wallet. */
  NOT_REFUNDABLE: 409,
  /** A still-open task refunds whole unclaimed slots only. */
  REFUND_NOT_WHOLE_SLOTS: 422,
  /** Maker-checker: the operator who asked for a refund, a code batch, a recovery link or a role cannot decide on it, nor can an operator linked to the asker by a chain of grants (either way), or one holding the role only since the request. */
  SECOND_OPERATOR_REQUIRED: 403,
  /** The refund was approved or rejected already. */
  REFUND_DECIDED: 409,
  /** A WeChat Pay refund's money goes back to a wallet only once WeChat Pay has failed it for good; this one is on its way, done, or reported with another amount. */
  REFUND_NOT_FAILED: 409,
  /** The failed WeChat Pay refund's money was returned to the wallet already. */
  REFUND_RETURNED: 409,
  /** Only a refund whose money was returned to a wallet, and which WeChat Pay paid out as well, is settled as paid twice. */
  REFUND_NOT_PAID_TWICE: 409,
  /** The refund paid twice was settled already. */
  REFUND_SETTLED: 409,
  /** A settlement of this refund paid twice waits for a second operator: it is approved, rejected or withdrawn before the refund is settled otherwise. */
  SETTLEMENT_AWAITING: 409,
  /** The settlement request was approved, rejected or withdrawn already. */
  SETTLEMENT_REQUEST_DECIDED: 409,
  /** Only a parked WeChat Pay refund is settled as parked; this one was settled, returned or done meanwhile, or WeChat Pay now reports it done as asked. */
  REFUND_NOT_PARKED: 409,
  /** WeChat Pay reports the parked refund still under way: it is settled once it has ended. */
  REFUND_STILL_PROCESSING: 409,
  /** The wallet to take money back from belongs to a locked account, whose money stays where it is. */
  WALLET_LOCKED: 409,
  /** The wallet to take a refund paid twice back from holds less than the refund available. */
  TAKE_BACK_EXCEEDS_BALANCE: 422,
  /** A code batch request was approved or rejected already. */
  CODE_REQUEST_DECIDED: 409,
  /** Only an approved code batch request is issued: this one waits for a second operator, or was rejected. */
  CODE_REQUEST_NOT_APPROVED: 409,
  /** The expiry a code batch request asked for has passed while it waited: ask for a new batch. */
  CODE_REQUEST_EXPIRED: 409,
  /** Only the operator who asked may do this: issue an approved code batch or recovery link (it is shown to them), or withdraw a settlement that waits. */
  REQUESTER_REQUIRED: 403,
  /** A recovery link request was approved or rejected already. */
  RECOVERY_REQUEST_DECIDED: 409,
  /** Only an approved recovery link request is issued: this one waits for a second admin, was rejected, or its approver is no longer an admin. */
  RECOVERY_REQUEST_NOT_APPROVED: 409,
  /** A recovery link request is open for a day: past it, it is neither approved nor issued. Ask again. */
  RECOVERY_REQUEST_CLOSED: 409,
  /** The person holds the role an admin asked to grant them already. */
  ROLE_UNCHANGED: 409,
  /** A role that raises this person's rights waits for a second admin's decision already. */
  ROLE_REQUEST_OPEN: 409,
  /** A role request was approved or rejected already. */
  ROLE_REQUEST_DECIDED: 409,
  /** A role request is no longer approved: its day has passed, the admin who asked is no longer one, or the person's role has changed since. */
  ROLE_REQUEST_CLOSED: 409,
  /** An operator's account is not recovered by a link (whoever held it would hold the role): revoke the role first. */
  OPERATOR_ACCOUNT: 409,
  /** The passkey request is unknown, used already or older than five minutes: ask for new options. */
  PASSKEY_CHALLENGE_EXPIRED: 422,
  /** The authenticator's answer to adding a passkey did not verify (signature, origin, relying party). */
  PASSKEY_NOT_VERIFIED: 422,
  /** Signing in: no account has this passkey (it was removed), or its answer did not verify. */
  PASSKEY_NOT_RECOGNISED: 401,
  /** This passkey is on an account already. */
  PASSKEY_ALREADY_ADDED: 409,
  /** The account has as many passkeys as it may (20): remove one first. */
  TOO_MANY_PASSKEYS: 409,
  INTERNAL_ERROR: 500,
  ORIGIN_UNAVAILABLE: 502,
  ORIGIN_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];
