import { z } from "zod";
import { errorEnvelopeSchema } from "./envelope";

/** The envelope of a successful answer carrying `data`, for route definitions. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ code: z.literal("SUCCESS"), data });
}

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

export const errorContent = (description: string) => jsonContent(errorEnvelopeSchema, description);

export const bearerAuth = [{ bearerAuth: [] }];

/** The back office: a session of an account holding an operator role (anyone else hears 404). */
export const operatorSession = [{ operatorSession: [] }];

/**
 * A page cursor: opaque, the `nextCursor` of the previous page (base64 without padding). One
 * this API did not give is refused with 400 naming `cursor`.
 */
export const pageCursorSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9+/]+$/)
  .meta({ description: "Opaque: the nextCursor of the previous page; any other value is refused (400, field cursor)." });

/** What an Idempotency-Key may be: 8 to 128 letters, digits or `_.:-` (a UUID fits). */
export const idempotencyKeyPattern = /^[A-Za-z0-9_.:-]{8,128}$/;

export const idempotencyKeyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(8)
    .max(128)
    .regex(idempotencyKeyPattern)
    .meta({ description: "A key unique to this operation; retries reuse it." }),
});

/** For changes that are safe to repeat: a key is optional, and with one a retry replays the first answer. */
export const optionalIdempotencyKeyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(8)
    .max(128)
    .regex(idempotencyKeyPattern)
    .optional()
    .meta({ description: "Optional: with a key, a retry after a lost answer gets the first answer again." }),
});
