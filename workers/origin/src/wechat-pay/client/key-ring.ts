/**
 * The keys that verify WeChat Pay's answers and notifications, chosen by `Wechatpay-Serial`:
 * the WeChat Pay public key (its id `PUB_KEY_ID_…`) and/or platform certificates (by
 * serial). During a migration both are configured and either may sign, as wechatpay-go's
 * `SHA256WithRSACombinedVerifier` and wechatpay-java's `AbstractVerifier.verify` accept.
 * A certificate serial not yet known triggers one download of `/v3/certificates` (rotation),
 * at most once per cool-down so unknown serials cannot make us hammer WeChat Pay.
 */
import { importPublicKeyPem, importRsaPublicKey } from "./crypto";
import { parseCertificatePem, type PlatformCertificate } from "./x509";

export type WechatKeyConfig = {
  publicKey?: { id: string; pem: string };
  platformCertificates?: string[];
};

export type KeyRing = {
  /** The key for a serial, refreshing the certificates once when it is unknown and downloads are possible. */
  keyFor(serial: string): Promise<CryptoKey | null>;
  /** The serial to send as the request's `Wechatpay-Serial`: the public key id, else the newest certificate. */
  preferredSerial(): string | null;
  /** Certificates learnt from a download. */
  addCertificates(certificates: PlatformCertificate[]): void;
  knownSerials(): string[];
};

const certificateRefreshCooldownMs = 60_000;

export function createKeyRing(
  config: WechatKeyConfig,
  { now, download }: { now: () => number; download?: () => Promise<PlatformCertificate[] | null> },
): KeyRing {
  const certificates = new Map<string, { certificate: PlatformCertificate; key: Promise<CryptoKey> }>();
  const publicKey = config.publicKey ? { id: config.publicKey.id, key: importPublicKeyPem(config.publicKey.pem) } : null;
  // An unusable configured key must fail loudly at the first use, not as an unhandled rejection now.
  publicKey?.key.catch(() => undefined);

  const add = (certificate: PlatformCertificate) => {
    if (certificates.has(certificate.serial)) return;
    const key = importRsaPublicKey(certificate.spki);
    key.catch(() => undefined);
    certificates.set(certificate.serial, { certificate, key });
  };
  for (const pem of config.platformCertificates ?? []) add(parseCertificatePem(pem));

  let lastRefreshAt = -Infinity;
  let refreshing: Promise<void> | null = null;
  const refresh = async () => {
    if (!download || now() - lastRefreshAt < certificateRefreshCooldownMs) return;
    if (!refreshing) {
      lastRefreshAt = now();
      refreshing = download()
        .then((downloaded) => downloaded?.forEach(add))
        .catch(() => undefined)
        .finally(() => {
          refreshing = null;
        });
    }
    await refreshing;
  };

  const lookUp = async (serial: string): Promise<CryptoKey | null> => {
    if (publicKey && serial === publicKey.id) return publicKey.key;
    const entry = certificates.get(serial);
    return entry ? entry.key : null;
  };

  return {
    async keyFor(serial) {
      const known = await lookUp(serial);
      if (known) return known;
      // Public key ids never rotate by download; only a certificate serial is worth a refresh.
      if (serial.startsWith("PUB_KEY_ID_")) return null;
      await refresh();
      return lookUp(serial);
    },
    preferredSerial() {
      if (publicKey) return publicKey.id;
      let newest: PlatformCertificate | null = null;
      for (const { certificate } of certificates.values()) if (!newest || certificate.notAfter > newest.notAfter) newest = certificate;
      return newest?.serial ?? null;
    },
    addCertificates(downloaded) {
      downloaded.forEach(add);
    },
    knownSerials() {
      return [...(publicKey ? [publicKey.id] : []), ...certificates.keys()];
    },
  };
}
