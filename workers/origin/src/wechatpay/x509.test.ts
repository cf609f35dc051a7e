import { describe, expect, it } from "vitest";
import { bytesToBase64 } from "./crypto";
import { parseCertificatePem } from "./x509";

// TEST-ONLY: a self-signed certificate made with `openssl req -x509 -set_serial 0x9ABC…`; its
// serial has the high bit set, so DER stores it with a leading zero byte.
const certificate = `-----BEGIN CERTIFICATE-----
MIIDgDCCAmigAwIBAgIVAJq83vASNFZ4mrze8BI0VniavN7wMA0GCSqGSIb3DQEB
CwUAME8xCzAJBgNVBAYTAkNOMRowGAYDVQQKDBFQYXlkZXNrIFRFU1QtT05MWTEk
MCIGA1UEAwwbVEVTVC1PTkxZIHJvZ3VlIGNlcnRpZmljYXRlMB4XDTI2MTEyMTE0
NDA1NFoXDTM2MTExODE0NDA1NFowTzELMAkGA1UEBhMCQ04xGjAYBgNVBAoMEVBh
eWRlc2sgVEVTVC1PTkxZMSQwIgYDVQQDDBtURVNULU9OTFkgcm9ndWUgY2VydGlm
aWNhdGUwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQChYPXhW4dEQ90s
00KONIo0tUA5XFcSOI61CRJ46vLRUOICCNnKscaob6V8Bi1foFsQyAiBg62/qbjD
z+2zO+m2RDBcqPI6kqRs8BpVsaTW70J4URg+Ug9nxZDAfOoJaf4ZxL3gjNq39Et4
IYZrXIpgu3m8P9qHns1BCXzJGUV0fWZsvv0iSeXojjmnb5sBe6p1DhEC7ojvCIJs
ZEOZOIxnrouGnXrmwlVjspiVwu1VyD49MPMoTmU3GUWQrmo8MVadLJypSEOUzXXR
xHJ/AJXfoWVzvuGRkL44xlX5f1vtZG7ZwBlFirUbXSv7OxjAKrZUjpRxi/IlKR31
hb/alOVFAgMBAAGjUzBRMB0GA1UdDgQWBBSgh1tPnMoVeE3CqGcMOsqXPsrvNzAf
BgNVHSMEGDAWgBSgh1tPnMoVeE3CqGcMOsqXPsrvNzAPBgNVHRMBAf8EBTADAQH/
MA0GCSqGSIb3DQEBCwUAA4IBAQCBKcOLosAedysDlbyD9tZi0bYTMYiLBBqZdmYv
A5OdMmn+QusGgJQFKtakpySPAyhwIrlVhfEEW3RMunOy8AxNSTBjr1Bcdk3+5rq6
aYLOIrXnlLLGHSMZFIGqAKy4t4cSXHfgX1d8fJEPW1YnS5KimCJT4wf/xCi3jIz6
Rm0C6zUcoOOpHEvU0I5xfFESuWiLX+LXgWo0qhsikIEnyT1bsjX/jx6oFT7gdQ+2
bIuC4T6z5ypkBiVKoJ/jyIIgya1Fhc5Jqnw8afix6iOPzXu3mqKsGvabTi0x1iyI
7GTZDiPYsuMoB90LngpgYwuUaYowbrGpamtfYzJ6guXmABYv
-----END CERTIFICATE-----`;

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
    await expect(crypto.subtle.importKey("spki", parsed.spki, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"])).resolves.toBeTruthy();
  });

  it("refuse what is not a certificate", () => {
    expect(() => parseCertificatePem("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----")).toThrow();
    expect(() => parseCertificatePem(certificate.replace("MIIDgDCCAmig", "MIIDgDCCAmkg"))).toThrow();
    expect(() => parseCertificatePem("no PEM here")).toThrow(/PEM/);
  });
});
