/*
 * Base64url without padding, as WebAuthn's JSON forms carry binary. Here rather than from
 * @simplewebauthn/server's helpers: those would pull the whole library (X.509, ASN.1) into
 * the origin's main module, which the passkey routes load only when used (webauthn-library.ts).
 */

export function toBase64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Throws on text that is not base64url. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** Throws on text that is not base64url or not UTF-8. */
export const base64urlToUtf8 = (text: string) => new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fromBase64url(text));
