/** The platform certificates download (`GET /v3/certificates`): each certificate sealed with the APIv3 key. */
import { type Answer, type ApiRoute, errorAnswer, ok } from "./answers";
import type { SimulatorCore } from "./core";
import { randomAlphanumeric, seal } from "./sim-crypto";
import { testMerchant, testPlatformCertificates } from "./test-only-keys";

export const certificateRoutes: readonly ApiRoute[] = [{ method: "GET", path: /^\/v3\/certificates$/, answer: certificates }];

async function certificates(core: SimulatorCore): Promise<Answer> {
  // Public-key merchants have no platform certificate (wechatpay-java CertificateDownloader expects NOT_FOUND).
  if (core.state.mode === "public_key") return errorAnswer(404, "NOT_FOUND", "商户未开通平台证书");
  const issued = core.state.rotated ? (["A", "B"] as const) : (["A"] as const);
  const data = [];
  for (const name of issued) data.push(await sealedCertificate(testPlatformCertificates[name]));
  return ok({ data });
}

async function sealedCertificate(certificate: { serial: string; certificatePem: string }) {
  const nonce = randomAlphanumeric(12);
  return {
    serial_no: certificate.serial,
    effective_time: "2026-11-21T22:40:52+08:00",
    expire_time: "2036-11-18T22:40:52+08:00",
    encrypt_certificate: {
      algorithm: "AEAD_AES_256_GCM",
      nonce,
      associated_data: "certificate",
      ciphertext: await seal(testMerchant.apiV3Key, nonce, "certificate", `${certificate.certificatePem}\n`),
    },
  };
}
