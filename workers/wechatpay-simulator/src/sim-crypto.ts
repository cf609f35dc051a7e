/**
 * The simulator's own cryptography — deliberately not shared with the client in
 * workers/origin/src/wechat-pay/client, so that one bug cannot hide on both sides of the wire.
 */

const rsa = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const encoder = new TextEncoder();

const bytes = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(encoder.encode(text));

function toBase64(data: Uint8Array): string {
  let binary = "";
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function der(pem: string, label: string): Uint8Array<ArrayBuffer> {
  const body = pem.split(`-----BEGIN ${label}-----`)[1]?.split(`-----END ${label}-----`)[0];
  const decoded = body === undefined ? null : fromBase64(body.replace(/\s+/g, ""));
  if (!decoded) throw new Error(`Not a PEM ${label}`);
  return decoded;
}

export const importSigningKey = (pkcs8Pem: string) => crypto.subtle.importKey("pkcs8", der(pkcs8Pem, "PRIVATE KEY"), rsa, false, ["sign"]);
export const importVerifyingKey = (spkiPem: string) => crypto.subtle.importKey("spki", der(spkiPem, "PUBLIC KEY"), rsa, false, ["verify"]);

export async function sign(key: CryptoKey, message: string): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.sign(rsa, key, bytes(message))));
}

export async function verify(key: CryptoKey, message: string, signature: string): Promise<boolean> {
  const decoded = fromBase64(signature);
  if (!decoded) return false;
  return crypto.subtle.verify(rsa, key, decoded, bytes(message)).catch(() => false);
}

/** AEAD_AES_256_GCM as WeChat Pay seals resources: base64(ciphertext ‖ 16-byte tag). */
export async function seal(apiV3Key: string, nonce: string, associatedData: string, plaintext: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", bytes(apiV3Key), "AES-GCM", false, ["encrypt"]);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: bytes(nonce), additionalData: bytes(associatedData) },
    key,
    bytes(plaintext),
  );
  return toBase64(new Uint8Array(sealed));
}

const alphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomFrom(alphabet: string, length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      const limit = 256 - (256 % alphabet.length);
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

export const randomAlphanumeric = (length: number) => randomFrom(alphanumeric, length);
export const randomDigits = (length: number) => randomFrom("0123456789", length);
export const randomHex = (length: number) => randomFrom("0123456789abcdef", length);
