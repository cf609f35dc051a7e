import { errorStatus } from "#contract/error-codes";
import type { ErrorCode, ErrorEnvelope } from "#contract/envelope";

/** An error answer in the contract's envelope, for failures the edge itself detects. */
export function errorAnswer(code: ErrorCode, message: string, headers?: HeadersInit): Response {
  const response = Response.json({ code, message } satisfies ErrorEnvelope, { status: errorStatus[code], headers });
  response.headers.set("Cache-Control", "no-store");
  return response;
}
