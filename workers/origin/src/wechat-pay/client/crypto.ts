/**
 * The cryptography WeChat Pay API v3 needs, on WebCrypto only: SHA256-with-RSA
 * (RSASSA-PKCS1-v1_5) signatures in standard base64, AEAD_AES_256_GCM for notification
 * resources and downloaded certificates, and the random strings of the protocol.
 * Verification never throws: a probe signature (`WECHATPAY/SIGNTEST/…`, not base64) or a
 * broken key is a failed verification, never an exception a caller might swallow as success.
 */

const rsaSha256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(encoder.encode(text));
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Standard base64 with padding, or null: `atob` alone accepts whitespace and missing padding. */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * The DER inside a PEM block with the given label. Secrets often arrive through environment
 * variables with their line breaks written as `\n`, so those are accepted too.
 */
export function pemToDer(pem: string, label: string): Uint8Array<ArrayBuffer> {
  const text = pem.replaceAll("\\n", "\n");
  const match = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(text);
  if (!match?.[1]) throw new Error(`Expected a PEM block "${label}"`);
  const der = base64ToBytes(match[1].replace(/\s+/g, ""));
  if (!der) throw new Error(`The PEM block "${label}" is not valid base64`);
  return der;
}

/**
 * The merchant's API private key. WebCrypto imports PKCS#8 only: a PKCS#1 key
 * (`BEGIN RSA PRIVATE KEY`) must be converted offline (`openssl pkcs8 -topk8 -nocrypt`).
 */
export async function importMerchantPrivateKey(pkcs8Pem: string): Promise<CryptoKey> {
  if (pkcs8Pem.includes("BEGIN RSA PRIVATE KEY")) {
    throw new Error("The merchant key is PKCS#1; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)");
  }
  return crypto.subtle.importKey("pkcs8", pemToDer(pkcs8Pem, "PRIVATE KEY"), rsaSha256, false, ["sign"]);
}

export async function importRsaPublicKey(spki: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("spki", spki, rsaSha256, false, ["verify"]);
}

/** A WeChat Pay public key (public-key mode), an SPKI PEM. */
export async function importPublicKeyPem(pem: string): Promise<CryptoKey> {
  return importRsaPublicKey(pemToDer(pem, "PUBLIC KEY"));
}

export async function signSha256WithRsa(privateKey: CryptoKey, message: string): Promise<string> {
  return bytesToBase64(new Uint8Array(await crypto.subtle.sign(rsaSha256, privateKey, utf8(message))));
}

export async function verifySha256WithRsa(publicKey: CryptoKey, message: string, signature: string): Promise<boolean> {
  const bytes = base64ToBytes(signature);
  if (!bytes || bytes.length === 0) return false;
  try {
    return await crypto.subtle.verify(rsaSha256, publicKey, bytes, utf8(message));
  } catch {
    return false;
  }
}

/**
 * AEAD_AES_256_GCM as WeChat Pay uses it: key = the bytes of the APIv3 key, IV = the bytes
 * of `nonce` (12 characters), AAD = `associated_data`, ciphertext = base64 of
 * ciphertext‖16-byte tag — the layout WebCrypto takes as it is. Null when it does not open.
 */
export async function aeadAesGcmDecrypt(input: {
  key: string | Uint8Array<ArrayBuffer>;
  nonce: string;
  associatedData: string;
  ciphertext: string;
}): Promise<string | null> {
  const keyBytes = typeof input.key === "string" ? utf8(input.key) : input.key;
  const sealed = base64ToBytes(input.ciphertext);
  if (!sealed || sealed.length < 16 || input.nonce.length === 0 || ![16, 24, 32].includes(keyBytes.length)) return null;
  try {
    const key = await crypto.subtle.importKey("raw", keyBytes, "AES-GCM", false, ["decrypt"]);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: utf8(input.nonce), additionalData: utf8(input.associatedData), tagLength: 128 },
      key,
      sealed,
    );
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(plain);
  } catch {
    return null;
  }
}

const nonceSymbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random `[0-9A-Za-z]` characters, uniformly (bytes ≥ 248 are drawn again). */
export function randomNonce(length = 32): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += nonceSymbols[byte % 62];
    }
  }
  return out;
}
