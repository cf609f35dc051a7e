import type { UserInfo } from "#contract/user-info";
import type { Idempotency } from "./idempotency/idempotency";
import type { SignedInOperator } from "./ops/operator-access";
import type { WechatPay } from "./wechat-pay/config";

/** What every origin handler can reach: the bindings, the injected clock, and per-request state. */
export type Clock = { now(): number };

export type OriginEnv = {
  Bindings: Env;
  /** `wechatPay()`: the WeChat Pay client for this environment, or null when it is not configured. */
  Variables: {
    clock: Clock;
    idempotency: Idempotency;
    user: UserInfo;
    /** Behind `signedInUser`: the hash of this request's session token, as the session table keys it. */
    sessionHash: string;
    wechatPay: () => Promise<WechatPay | null>;
    /** The client's address as far as it can be believed (http/edge-trust.ts), or null. */
    clientIp: string | null;
    /** Roughly where the client is ("city, region, country"), as the edge saw it (http/edge-trust.ts), or null. */
    clientPlace: string | null;
    /** Behind `operatorWith` (ops/operator-access.ts): the operator and their role. */
    operator: SignedInOperator;
  };
};
