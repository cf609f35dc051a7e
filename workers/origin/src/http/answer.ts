import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorStatus } from "#contract/error-codes";
import type { ErrorCode, ErrorEnvelope } from "#contract/envelope";

/** A failure the client can act on; `onError` turns it into the contract's envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Headers the answer carries, e.g. `Retry-After` on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorBody(error: ApiError): ErrorEnvelope {
  const body: ErrorEnvelope = { code: error.code, message: error.message };
  if (error.field !== undefined) body.field = error.field;
  return body;
}

export function errorStatusOf(error: ApiError): number {
  return errorStatus[error.code];
}

/** What a request to a path with no route hears; also what an emulation route says where it cannot emulate. */
export function noRouteError(c: Context): ApiError {
  return new ApiError("NOT_FOUND", `No API route ${c.req.method} ${c.req.path}.`);
}

export function failure(c: Context, error: ApiError): Response {
  return c.json(errorBody(error), errorStatusOf(error) as ContentfulStatusCode, error.headers);
}
