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

export const idempotencyKeyHeader = z.object({
  "Idempotency-Key": z.string().min(8).max(128).meta({ description: "A key unique to this operation; retries reuse it." }),
});

/** For changes that are safe to repeat: a key is optional, and with one a retry replays the first answer. */
export const optionalIdempotencyKeyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(8)
    .max(128)
    .optional()
    .meta({ description: "Optional: with a key, a retry after a lost answer gets the first answer again." }),
});
