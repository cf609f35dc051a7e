/**
 * A throwaway TLS certificate for 127.0.0.1, made for one bench run by the `openssl` command
 * (Debian and macOS have it; Node cannot issue a certificate itself), so that the compressing
 * proxy can speak HTTP/2 over TLS as Cloudflare does (docs/decisions/035-start-up-floors.md).
 * Chromium trusts exactly this certificate by its public key's hash
 * (`--ignore-certificate-errors-spki-list`), nothing else.
 */
import { execFileSync } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type LocalCertificate = {
  key: string;
  cert: string;
  /** The base64 SHA-256 of its SubjectPublicKeyInfo, as Chromium's SPKI allow-list takes it. */
  spkiHash: string;
};

/** The certificate, or why there is none (no `openssl` here). */
export function makeLocalCertificate(): LocalCertificate | { error: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "paydesk-bench-tls-"));
  try {
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    // A day is enough: the certificate lives as long as one run.
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
        ...["-keyout", key, "-out", cert, "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      ],
      { stdio: ["ignore", "ignore", "pipe"], timeout: 30_000 },
    );
    const pem = readFileSync(cert, "utf8");
    return { key: readFileSync(key, "utf8"), cert: pem, spkiHash: spkiHashOf(pem) };
  } catch (error) {
    return { error: `no TLS certificate (openssl: ${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function spkiHashOf(certPem: string): string {
  const spki = createPublicKey(certPem).export({ type: "spki", format: "der" });
  return createHash("sha256").update(spki).digest("base64");
}
