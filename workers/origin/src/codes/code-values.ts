import { crockfordAlphabet } from "#contract/codes";

/** A new random code: 16 Crockford base32 characters (80 bits). */
export function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // 256 is a multiple of 32: every character is uniformly likely.
  return [...bytes].map((byte) => crockfordAlphabet[byte % 32]).join("");
}

export async function codeHash(plain: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`paydesk-code:${plain}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
