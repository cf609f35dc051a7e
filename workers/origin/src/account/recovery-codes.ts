import { crockfordAlphabet, formatCode, normalizeCrockford } from "#contract/codes";
import { recoveryCodeCount, recoveryCodeLength } from "#contract/account-safety";
import { hashToken } from "../auth/bearer-token";

/** A new set of recovery codes, as shown: XXXX-XXXX-XXXX, 60 random bits each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const bytes = crypto.getRandomValues(new Uint8Array(recoveryCodeLength));
    // 256 is a multiple of 32: every symbol is equally likely.
    return formatCode([...bytes].map((byte) => crockfordAlphabet[byte % 32]).join(""));
  });
}

/** A code as typed, in its plain form (Crockford's reading rules), or null when it cannot be one. */
export const plainRecoveryCode = (typed: string) => normalizeCrockford(typed, recoveryCodeLength);

/**
 * What is stored of a code: SHA-256 over the person's id and the code, so the same code of two
 * people (never likely, at 60 bits) differs, and a database leak yields no usable codes.
 * A fast hash suffices: 60 random bits are out of reach of guessing, and the doors bound tries.
 */
export function recoveryCodeHash(userId: string, plain: string): Promise<string> {
  return hashToken(`paydesk-recovery:${userId}:${plain}`);
}
