import { execFileSync } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeLocalCertificate } from "./local-certificate.ts";

describe("the bench's throwaway TLS certificate", () => {
  it("is for 127.0.0.1, and its key hash is the one Chromium's SPKI allow-list computes", () => {
    const made = makeLocalCertificate();
    if ("error" in made) throw new Error(`the bench's TLS needs openssl: ${made.error}`);
    const certificate = new X509Certificate(made.cert);
    expect(certificate.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(certificate.checkPrivateKey(createPrivateKey(made.key))).toBe(true);
    // The hash as Chromium's documentation has it computed, by openssl itself.
    const publicKey = execFileSync("openssl", ["x509", "-pubkey", "-noout"], { input: made.cert });
    const der = execFileSync("openssl", ["pkey", "-pubin", "-outform", "der"], { input: publicKey });
    const digest = execFileSync("openssl", ["dgst", "-sha256", "-binary"], { input: der });
    expect(made.spkiHash).toBe(digest.toString("base64"));
  });
});
