/**
 * Just enough X.509 (RFC 5280 §4.1) to use a WeChat Pay platform certificate with
 * WebCrypto, which cannot import certificates: its serial number, validity and
 * SubjectPublicKeyInfo. The chain is not checked — the certificate arrives either from
 * configuration or AEAD-sealed with the APIv3 key — as the official SDKs do not check it
 * either (wechatpay-java `RSACertificateHandler.validateCertPath` is empty on purpose).
 */
import { pemToDer } from "./crypto";

type Tlv = { tag: number; start: number; contentStart: number; end: number };

function byteAt(der: Uint8Array, offset: number): number {
  const byte = der[offset];
  if (byte === undefined) throw new Error("DER: truncated");
  return byte;
}

function readTlv(der: Uint8Array, offset: number, limit = der.length): Tlv {
  if (offset + 2 > limit) throw new Error("DER: truncated header");
  const tag = byteAt(der, offset);
  if ((tag & 0x1f) === 0x1f) throw new Error("DER: multi-byte tags are not used in certificates");
  let length = byteAt(der, offset + 1);
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || contentStart + count > limit) throw new Error("DER: bad length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + byteAt(der, contentStart + i);
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > limit) throw new Error("DER: content runs past its parent");
  return { tag, start: offset, contentStart, end };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = parent.contentStart; offset < parent.end; ) {
    const child = readTlv(der, offset, parent.end);
    out.push(child);
    offset = child.end;
  }
  return out;
}

function expectTag(tlv: Tlv | undefined, tag: number, what: string): Tlv {
  if (!tlv || tlv.tag !== tag) throw new Error(`X.509: expected ${what}`);
  return tlv;
}

function parseTime(der: Uint8Array, tlv: Tlv): number {
  const text = new TextDecoder().decode(der.subarray(tlv.contentStart, tlv.end));
  const match =
    tlv.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) throw new Error("X.509: bad time");
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  // RFC 5280 §4.1.2.5.1: two-digit years 50–99 are 19xx.
  const year = tlv.tag === 0x17 ? (y >= 50 ? 1900 + y : 2000 + y) : y;
  return Date.UTC(year, mo - 1, d, h, mi, s);
}

export type PlatformCertificate = {
  /** Upper-case hex without leading zero bytes, as `openssl x509 -serial` and the SDKs print it. */
  serial: string;
  notBefore: number;
  notAfter: number;
  spki: Uint8Array<ArrayBuffer>;
};

function parseCertificateDer(der: Uint8Array<ArrayBuffer>): PlatformCertificate {
  const certificate = expectTag(readTlv(der, 0), 0x30, "Certificate SEQUENCE");
  const [tbs] = children(der, certificate);
  const fields = children(der, expectTag(tbs, 0x30, "TBSCertificate SEQUENCE"));
  // The version is an optional [0] EXPLICIT field.
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  const serial = expectTag(rest[0], 0x02, "serialNumber INTEGER");
  const validity = children(der, expectTag(rest[3], 0x30, "Validity SEQUENCE"));
  const spki = expectTag(rest[5], 0x30, "SubjectPublicKeyInfo SEQUENCE");
  let serialBytes = der.subarray(serial.contentStart, serial.end);
  while (serialBytes.length > 1 && serialBytes[0] === 0) serialBytes = serialBytes.subarray(1);
  return {
    serial: [...serialBytes]
      .map((byte) => byte.toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase(),
    notBefore: parseTime(der, expectTag(validity[0], validity[0]?.tag === 0x18 ? 0x18 : 0x17, "notBefore")),
    notAfter: parseTime(der, expectTag(validity[1], validity[1]?.tag === 0x18 ? 0x18 : 0x17, "notAfter")),
    spki: der.slice(spki.start, spki.end),
  };
}

export function parseCertificatePem(pem: string): PlatformCertificate {
  return parseCertificateDer(pemToDer(pem, "CERTIFICATE"));
}
