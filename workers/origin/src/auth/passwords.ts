/**
 * Password hashing: PBKDF2-HMAC-SHA256 through WebCrypto with a per-user 16-byte salt.
 * 100,000 iterations is the most a production Worker allows per deriveBits (OWASP
 * asks 600,000 for PBKDF2-SHA256; see docs/decisions/002-accounts-and-idempotency.md).
 */
export const passwordIterations = 100_000;

export type PasswordHash = { hash: string; salt: string; iterations: number };

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = passwordIterations): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { hash: toBase64(await derive(password, salt, iterations)), salt: toBase64(salt), iterations };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const actual = await derive(password, fromBase64(stored.salt), stored.iterations);
  const expected = fromBase64(stored.hash);
  // Constant time: the comparison must not tell how many bytes matched.
  return actual.byteLength === expected.byteLength && crypto.subtle.timingSafeEqual(actual, expected);
}

/** A stand-in hash for handles that do not exist, so both answers take as long. */
export const absentUserHash: PasswordHash = {
  hash: "n8DPv8Lz2nrp+hi+mFxu3P3aY8ak0rQyXYQcu6N/jQA=",
  salt: "AAAAAAAAAAAAAAAAAAAAAA==",
  iterations: passwordIterations,
};
