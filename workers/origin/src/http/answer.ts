import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorStatus } from "../../../../app/api/error-codes";
import type { ErrorCode, ErrorEnvelope, SuccessEnvelope } from "../../../../app/api/envelope";

/** A failure the client can act on; `onError` turns it into the contract's envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function success<T>(c: Context, data: T, status: 200 | 201 = 200): Response {
  return c.json({ code: "SUCCESS", data } satisfies SuccessEnvelope<T>, status);
}

export function failure(c: Context, error: ApiError): Response {
  const body: ErrorEnvelope = { code: error.code, message: error.message };
  if (error.field !== undefined) body.field = error.field;
  return c.json(body, errorStatus[error.code] as ContentfulStatusCode);
}
