/** WeChat Pay's signatures on what it sends (answers and notifications), and which key makes them. */
import type { SimulatorCore } from "./core";
import { randomAlphanumeric, randomHex, sign } from "./sim-crypto";
import type { SimFault } from "./state";
import { testPlatformCertificates, testRogueKey, testWechatPublicKey } from "./test-only-keys";

export const signatureType = "WECHATPAY2-SHA256-RSA2048";
const probePrefix = "WECHATPAY/SIGNTEST/";

export type KeyChoice = "public_key" | "certificate";

/** A signature spoiled on purpose (fault injection); kinds that do not touch signatures do nothing. */
export type Spoiler = Pick<SimFault, "kind" | "skewSeconds">;

export type SignatureHeaders = {
  "Wechatpay-Nonce": string;
  "Wechatpay-Signature": string;
  "Wechatpay-Timestamp": string;
  "Wechatpay-Serial": string;
  "Wechatpay-Signature-Type": typeof signatureType;
};

type Signer = { serial: string; key: CryptoKey };

/**
 * The key for an answer: the merchant's mode decides; during a migration ("both") the
 * request's `Wechatpay-Serial` chooses between the public key and the current certificate.
 */
export function answerKeyChoice(core: SimulatorCore, requestSerial: string | null): KeyChoice {
  if (core.state.mode !== "both") return core.state.mode;
  const certificateSerials = [testPlatformCertificates.A.serial, testPlatformCertificates.B.serial];
  return requestSerial && certificateSerials.includes(requestSerial) ? "certificate" : "public_key";
}

async function signer(core: SimulatorCore, choice: KeyChoice, spoil: Spoiler | undefined): Promise<Signer> {
  const keys = await core.keys();
  if (spoil?.kind === "unknown_serial") return { serial: testRogueKey.serial, key: keys.rogue };
  const current = core.state.currentCertificate;
  const chosen =
    choice === "public_key"
      ? { serial: testWechatPublicKey.id, key: keys.publicKey }
      : { serial: testPlatformCertificates[current].serial, key: keys.certificates[current] };
  return spoil?.kind === "wrong_key" ? { ...chosen, key: keys.rogue } : chosen;
}

export async function signatureHeaders(core: SimulatorCore, body: string, choice: KeyChoice, spoil?: Spoiler): Promise<SignatureHeaders> {
  const { serial, key } = await signer(core, choice, spoil);
  const timestamp = String(Math.floor(core.now() / 1000) + (spoil?.kind === "skew" ? (spoil.skewSeconds ?? 600) : 0));
  const nonce = randomHex(32);
  const signature =
    spoil?.kind === "probe_signature" ? `${probePrefix}${randomAlphanumeric(20)}` : await sign(key, `${timestamp}\n${nonce}\n${body}\n`);
  return {
    "Wechatpay-Nonce": nonce,
    "Wechatpay-Signature": signature,
    "Wechatpay-Timestamp": timestamp,
    "Wechatpay-Serial": serial,
    "Wechatpay-Signature-Type": signatureType,
  };
}
