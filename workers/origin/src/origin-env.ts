import type { UserInfo } from "../../../app/api/user-info";
import type { Idempotency } from "./idempotency/idempotency";

/** What every origin handler can reach: the bindings, the injected clock, and per-request state. */
export type Clock = { now(): number };

export type OriginEnv = {
  Bindings: Env;
  Variables: { clock: Clock; idempotency: Idempotency; user: UserInfo };
};
