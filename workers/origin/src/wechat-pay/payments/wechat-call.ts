import * as Sentry from "../../error-reporting";
import type { WechatPayOutcome } from "../client/outcome";

/** A call to WeChat Pay whose throw (not a refusal) counts as an unknown outcome, reported. */
export async function wechatCall<T>(call: () => Promise<WechatPayOutcome<T>>): Promise<WechatPayOutcome<T>> {
  try {
    return await call();
  } catch (error) {
    // E.g. a merchant key that does not import: as unknown as a time-out, and reported.
    console.error("WeChat Pay call failed", error instanceof Error ? error.message : error);
    Sentry.captureException(error);
    return { outcome: "unknown", reason: "network_error", requestId: null };
  }
}
