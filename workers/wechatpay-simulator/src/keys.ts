/** The merchants the simulated WeChat Pay knows, and its TEST-ONLY keys imported for Web Crypto. */
import { importSigningKey, importVerifyingKey } from "./sim-crypto";
import { testMerchant, testPlatformCertificates, testRogueKey, testWechatPublicKey } from "./test-only-keys";

export type Merchant = {
  appids: string[];
  /** The merchant's API certificate serials (`serial_no` in Authorization) and their public keys. */
  serials: Record<string, string>;
};

export const merchants: Record<string, Merchant> = {
  [testMerchant.mchid]: { appids: [testMerchant.appid], serials: { [testMerchant.serial]: testMerchant.publicKeyPem } },
};

/** The official accounts behind the merchants' appids, with the AppSecret web authorization asks for. */
export const officialAccounts: Record<string, { appSecret: string }> = {
  [testMerchant.appid]: { appSecret: testMerchant.appSecret },
};

export type Keyring = {
  /** By `mchid:serial`. */
  merchants: Map<string, CryptoKey>;
  publicKey: CryptoKey;
  certificates: { A: CryptoKey; B: CryptoKey };
  /** A key WeChat Pay never had, for spoiled signatures. */
  rogue: CryptoKey;
};

export const merchantKeyId = (mchid: string, serial: string) => `${mchid}:${serial}`;

export async function importKeyring(): Promise<Keyring> {
  const merchantKeys = new Map<string, CryptoKey>();
  for (const [mchid, merchant] of Object.entries(merchants)) {
    for (const [serial, pem] of Object.entries(merchant.serials))
      merchantKeys.set(merchantKeyId(mchid, serial), await importVerifyingKey(pem));
  }
  return {
    merchants: merchantKeys,
    publicKey: await importSigningKey(testWechatPublicKey.privateKeyPem),
    certificates: {
      A: await importSigningKey(testPlatformCertificates.A.privateKeyPem),
      B: await importSigningKey(testPlatformCertificates.B.privateKeyPem),
    },
    rogue: await importSigningKey(testRogueKey.privateKeyPem),
  };
}
