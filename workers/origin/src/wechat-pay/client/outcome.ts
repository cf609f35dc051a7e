/**
 * What became of one call to WeChat Pay: `ok`, `failed` (refused, nothing happened) or
 * `unknown` (it may or may not have taken effect), read from the HTTP exchange.
 */
import type { KeyRing } from "./key-ring";
import { verifyWechatSignature, type VerificationFailure } from "./verify";
import { errorAnswerSchema } from "./wire";

type UnknownReason = "timeout" | "network_error" | "server_error" | "unexpected_status" | "unverified_answer" | "malformed_answer";

export type WechatPayOutcome<T> =
  | { outcome: "ok"; data: T; requestId: string | null }
  | { outcome: "failed"; status: number; code: string; rawCode: string; message: string; retryable: boolean; requestId: string | null }
  | {
      outcome: "unknown";
      reason: UnknownReason;
      status?: number;
      code?: string;
      message?: string;
      verification?: VerificationFailure;
      requestId: string | null;
    };

export type Exchange =
  | { kind: "answer"; status: number; headers: Headers; body: string }
  | { kind: "timeout" }
  | { kind: "network_error"; error: unknown };

/** WeChat Pay spells some codes both ways by documentation generation (SYSTEMERROR / SYSTEM_ERROR). */
const codeSpellings: Record<string, string> = {
  SYSTEMERROR: "SYSTEM_ERROR",
  ORDERNOTEXIST: "ORDER_NOT_EXIST",
  ORDERPAID: "ORDER_PAID",
  ORDERCLOSED: "ORDER_CLOSED",
  USERPAYING: "USER_PAYING",
  RULELIMIT: "RULE_LIMIT",
  NOTENOUGH: "NOT_ENOUGH",
  FREQUENCYLIMITED: "FREQUENCY_LIMITED",
  NOAUTH: "NO_AUTH",
  PARAMERROR: "PARAM_ERROR",
  SIGNERROR: "SIGN_ERROR",
};

export function normalizeErrorCode(code: string): string {
  return codeSpellings[code] ?? code;
}

/** An exchange's outcome: a 2xx answer is `ok` only once its signature verifies and its body reads. */
export async function classify<T>(
  answer: Exchange,
  parse: ((json: unknown) => T | undefined) | null,
  { keys, now }: { keys: Pick<KeyRing, "keyFor">; now: () => number },
): Promise<WechatPayOutcome<T>> {
  if (answer.kind === "timeout") return { outcome: "unknown", reason: "timeout", requestId: null };
  if (answer.kind === "network_error") return { outcome: "unknown", reason: "network_error", requestId: null };
  const requestId = answer.headers.get("Request-ID") ?? null;
  const error = readError(answer.body);
  if (answer.status >= 200 && answer.status < 300) {
    const verified = await verifyWechatSignature(answer.headers, answer.body, { keys, now });
    if (!verified.ok)
      return { outcome: "unknown", reason: "unverified_answer", status: answer.status, verification: verified.reason, requestId };
    if (parse === null) return { outcome: "ok", data: null as T, requestId };
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return { outcome: "unknown", reason: "malformed_answer", status: answer.status, requestId };
    }
    const data = parse(json);
    return data === undefined
      ? { outcome: "unknown", reason: "malformed_answer", status: answer.status, requestId }
      : { outcome: "ok", data, requestId };
  }
  if (answer.status === 429) {
    // Refused for frequency: not processed; the same request may be sent again later.
    return {
      outcome: "failed",
      status: 429,
      code: "FREQUENCY_LIMITED",
      rawCode: error?.code ?? "FREQUENCY_LIMITED",
      message: error?.message ?? "",
      retryable: true,
      requestId,
    };
  }
  if (answer.status >= 400 && answer.status < 500) {
    const rawCode = error?.code ?? `HTTP_${answer.status}`;
    return {
      outcome: "failed",
      status: answer.status,
      code: normalizeErrorCode(rawCode),
      rawCode,
      message: error?.message ?? "",
      retryable: false,
      requestId,
    };
  }
  return {
    outcome: "unknown",
    reason: answer.status >= 500 ? "server_error" : "unexpected_status",
    status: answer.status,
    ...(error ? { code: normalizeErrorCode(error.code), message: error.message ?? "" } : {}),
    requestId,
  };
}

function readError(body: string): { code: string; message?: string } | null {
  try {
    const parsed = errorAnswerSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
