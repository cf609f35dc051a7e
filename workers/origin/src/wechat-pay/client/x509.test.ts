import { describe, expect, it } from "vitest";
import { bytesToBase64 } from "./crypto";
import { parseCertificatePem } from "./x509";
import { testRogueKey } from "#wechatpay-simulator/test-only-keys";

// TEST-ONLY: the simulator's rogue certificate, made with `openssl req -x509 -set_serial 0x9ABC…`;
// its serial has the high bit set, so DER stores it with a leading zero byte.
const certificate = testRogueKey.certificatePem;

// `openssl x509 -noout -pubkey | openssl pkey -pubin -outform DER | base64` of the same certificate.
const opensslSpki =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAoWD14VuHREPdLNNCjjSKNLVAOVxXEjiOtQkSeOry0VDiAgjZyrHGqG+lfAYtX6BbEMgIgYOtv6m4w8/tszvptkQwXKjyOpKkbPAaVbGk1u9CeFEYPlIPZ8WQwHzqCWn+GcS94Izat/RLeCGGa1yKYLt5vD/ah57NQQl8yRlFdH1mbL79Iknl6I45p2+bAXuqdQ4RAu6I7wiCbGRDmTiMZ66Lhp165sJVY7KYlcLtVcg+PTDzKE5lNxlFkK5qPDFWnSycqUhDlM110cRyfwCV36Flc77hkZC+OMZV+X9b7WRu2cAZRYq1G10r+zsYwCq2VI6UcYvyJSkd9YW/2pTlRQIDAQAB";

describe("platform certificates", () => {
  it("yield the serial, validity and public key openssl reads from them", async () => {
    const parsed = parseCertificatePem(certificate);
    expect(parsed.serial).toBe("9ABCDEF0123456789ABCDEF0123456789ABCDEF0");
    expect(new Date(parsed.notBefore).toISOString()).toBe("2026-11-21T14:40:54.000Z");
    expect(new Date(parsed.notAfter).toISOString()).toBe("2036-11-18T14:40:54.000Z");
    expect(bytesToBase64(parsed.spki)).toBe(opensslSpki);
    await expect(
      crypto.subtle.importKey("spki", parsed.spki, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]),
    ).resolves.toBeTruthy();
  });

  it("refuse what is not a certificate", () => {
    expect(() => parseCertificatePem("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----")).toThrow();
    expect(() => parseCertificatePem(certificate.replace("MIIDgDCCAmig", "MIIDgDCCAmkg"))).toThrow();
    expect(() => parseCertificatePem("no PEM here")).toThrow(/PEM/);
  });
});
