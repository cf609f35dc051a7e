/**
 * The one catalogue of stable error codes (PRODUCT.md §5). Pages translate these
 * into human messages; workers answer with them. Add codes, never rename them.
 */
export const errorCodes = [
  "BAD_REQUEST",
  "UNAUTHENTICATED",
  "NOT_FOUND",
  "INTERNAL_ERROR",
  "ORIGIN_UNAVAILABLE",
  "ORIGIN_TIMEOUT",
] as const;

export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  INTERNAL_ERROR: 500,
  ORIGIN_UNAVAILABLE: 502,
  ORIGIN_TIMEOUT: 504,
} as const satisfies Record<(typeof errorCodes)[number], number>;
