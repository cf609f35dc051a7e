import { z } from "zod";

/** Crockford base32 without I, L, O and U (they read as 1, 1, 0 and are left out). */
export const crockfordAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A prepaid code as typed: case-insensitive, with or without dashes and spaces; I and L
 * read as 1, O as 0 (Crockford's decoding rules). Null when it cannot be a code.
 */
export function normalizeCode(input: string): string | null {
  return normalizeCrockford(input, 16);
}

/** `length` Crockford symbols as typed (the rules of `normalizeCode`), or null. */
export function normalizeCrockford(input: string, length: number): string | null {
  const plain = input.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  return plain.length === length && /^[0-9A-HJKMNP-TV-Z]+$/.test(plain) ? plain : null;
}

export function formatCode(plain: string): string {
  return plain.match(/.{4}/g)?.join("-") ?? plain;
}

/**
 * What `normalizeCode` accepts, as a pattern the published schema can state: 16 of Crockford's
 * symbols in either case (I, L and O too, read as 1, 1 and 0; never U), spaces and dashes anywhere.
 */
const typedCodePattern = /^[\s-]*(?:[0-9A-TV-Za-tv-z][\s-]*){16}$/;

export const redeemCodeBodySchema = z.strictObject({
  code: z.string().max(40).regex(typedCodePattern, "A code has 16 letters and digits, like ABCD-EFGH-JKMN-PQRS."),
});

/** What the redemption did; balances are read afresh from the session call. */
export const redeemCodeAnswerSchema = z.strictObject({
  value: z.number().int(),
  redeemedAt: z.iso.datetime(),
});
export type RedeemCodeAnswer = z.infer<typeof redeemCodeAnswerSchema>;

export const issueCodesBodySchema = z.strictObject({
  value: z.number().int().min(1).max(100_000_000),
  count: z.number().int().min(1).max(1_000),
  expiresAt: z.iso.datetime(),
});

export const issuedCodesSchema = z.strictObject({
  batch: z.string(),
  codes: z.array(z.string()),
  value: z.number().int(),
  expiresAt: z.iso.datetime(),
});
