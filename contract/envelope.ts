/**
 * The origin contract's answer envelope (docs/api-contract.md). Both workers and the
 * pages import this module, so the shape is defined exactly once.
 */
import { z } from "zod";
import { errorCodes, type ErrorCode } from "./error-codes";

export type { ErrorCode };

const successCode = "SUCCESS";

type SuccessEnvelope<T> = { code: typeof successCode; data: T; message?: string };
export type ErrorEnvelope = { code: ErrorCode; message?: string; field?: string };
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

export const errorEnvelopeSchema = z.strictObject({
  code: z.enum(errorCodes),
  message: z.string().max(1000).optional(),
  field: z.string().max(200).optional(),
});
