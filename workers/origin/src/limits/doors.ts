/**
 * Every door's limit (docs/rules-and-limits.md, Limits on every door; the table in README).
 * A burst limit is a Workers Rate Limiting binding (`[[ratelimits]]` in the origin's
 * wrangler.toml: its count per 60 seconds lives there); a daily limit is a D1 counter per
 * calendar day in China Standard Time (limit-counter.ts). Doors that move money or create
 * something also keep the rules of their own domain (the daily transfer total, the
 * sign-in and redeem locks, the contact form's hourly limits).
 */
type LimitedBy = "user" | "address" | "session";

export type Door = {
  /** The Workers Rate Limiting binding that bounds bursts, keyed by `burstBy`. */
  burst: RateLimitBinding;
  burstBy: LimitedBy;
  /** Most per day, by user and/or client address. */
  perDay?: Partial<Record<"user" | "address", number>>;
  /** The operations it guards, as the published document names them (it documents their 429). */
  routes: readonly `${"GET" | "POST"} /api/${string}`[];
};

/** The names of the origin's Rate Limiting bindings (each one door's burst limit). */
export type RateLimitBinding =
  | "LIMIT_SIGN_UP"
  | "LIMIT_SIGN_IN"
  | "LIMIT_SIGN_IN_LINK"
  | "LIMIT_LOOKUP"
  | "LIMIT_REDEEM"
  | "LIMIT_ORDERS"
  | "LIMIT_TRANSFERS"
  | "LIMIT_TASKS"
  | "LIMIT_CLAIMS"
  | "LIMIT_TICKETS"
  | "LIMIT_MESSAGES"
  | "LIMIT_ACCOUNT"
  | "LIMIT_ACCOUNT_SECURITY"
  | "LIMIT_RECOVERY"
  | "LIMIT_PASSKEY_SIGN_IN"
  | "LIMIT_PASSKEYS"
  | "LIMIT_EXPORTS";

export const doors = {
  signUp: { burst: "LIMIT_SIGN_UP", burstBy: "address", routes: ["POST /api/user/register"], perDay: { address: 20 } },
  signIn: { burst: "LIMIT_SIGN_IN", burstBy: "address", routes: ["POST /api/user/login"] },
  // Both steps of a passkey sign-in: the options write a challenge row, so they count too.
  passkeySignIn: {
    burst: "LIMIT_PASSKEY_SIGN_IN",
    burstBy: "address",
    routes: ["POST /api/user/passkey/options", "POST /api/user/passkey/login"],
  },
  signInLink: { burst: "LIMIT_SIGN_IN_LINK", burstBy: "user", routes: ["POST /api/user/sign-in-link"], perDay: { user: 20 } },
  // 10,000 guessed handles take 50 days for one account and 20 for one address (lookup-walk test).
  lookup: { burst: "LIMIT_LOOKUP", burstBy: "user", routes: ["GET /api/users/lookup"], perDay: { user: 200, address: 500 } },
  redeem: { burst: "LIMIT_REDEEM", burstBy: "user", routes: ["POST /api/codes/redeem"] },
  orders: {
    burst: "LIMIT_ORDERS",
    burstBy: "user",
    routes: [
      "POST /api/orders/recharge",
      "POST /api/orders/{id}/pay",
      // Inside WeChat, the sign-in that lets JSAPI pay (docs/decisions/073-wechat-payer-sign-in.md).
      "POST /api/payments/wechat/sign-in",
      "POST /api/payments/wechat/sign-in/complete",
    ],
    perDay: { user: 200 },
  },
  // The session, not the user: a transfer checks its session inside its one batch (decision 007).
  transfers: { burst: "LIMIT_TRANSFERS", burstBy: "session", routes: ["POST /api/transfers"] },
  tasks: { burst: "LIMIT_TASKS", burstBy: "user", routes: ["POST /api/tasks"], perDay: { user: 50 } },
  claims: { burst: "LIMIT_CLAIMS", burstBy: "user", routes: ["POST /api/tasks/{id}/claims"], perDay: { user: 200 } },
  tickets: { burst: "LIMIT_TICKETS", burstBy: "user", routes: ["POST /api/support/tickets"], perDay: { user: 20 } },
  messages: { burst: "LIMIT_MESSAGES", burstBy: "user", routes: ["POST /api/support/tickets/{id}/messages"], perDay: { user: 200 } },
  // docs/decisions/024-account-safety.md: a person's own account changes.
  account: {
    burst: "LIMIT_ACCOUNT",
    burstBy: "user",
    routes: ["POST /api/account/profile", "POST /api/account/sessions/{id}/end", "POST /api/account/sessions/end-others"],
    perDay: { user: 200 },
  },
  // Each of these checks the password: a session thief guessing it gets few tries.
  accountSecurity: {
    burst: "LIMIT_ACCOUNT_SECURITY",
    burstBy: "user",
    routes: [
      "POST /api/account/password",
      "POST /api/account/recovery-codes",
      "POST /api/account/passkeys/options",
      "POST /api/account/devices/{id}/forget",
    ],
    perDay: { user: 30 },
  },
  // Besides the handle's sign-in lock, which recovery codes share with passwords.
  recovery: {
    burst: "LIMIT_RECOVERY",
    burstBy: "address",
    routes: ["POST /api/user/recover", "POST /api/user/recover-with-link"],
    perDay: { address: 50 },
  },
  passkeys: {
    burst: "LIMIT_PASSKEYS",
    burstBy: "user",
    routes: ["POST /api/account/passkeys/options", "POST /api/account/passkeys"],
    perDay: { user: 50 },
  },
  // A year of statement is a long read of the ledger: a person needs a few, not hundreds (decision 026).
  exports: { burst: "LIMIT_EXPORTS", burstBy: "user", routes: ["GET /api/wallet/export"], perDay: { user: 50 } },
} as const satisfies Record<string, Door>;

export type DoorName = keyof typeof doors;

/** Every burst binding counts over this window (the binding's `period`). */
export const burstPeriodSeconds = 60;
