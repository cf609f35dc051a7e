import { beforeEach, describe, expect, it } from "vitest";
import { testPlatformCertificates, testWechatPublicKey } from "../src/test-only-keys";
import { certificateConfig, control, inMinutes, outTradeNo, resetSimulator, simulatorState, testClient } from "./support";

beforeEach(async () => {
  await resetSimulator();
});

const order = () => ({ outTradeNo: outTradeNo("C"), description: "Paydesk recharge", amount: 100, expiresAt: inMinutes(30) });
const downloads = async () => (await simulatorState()).requests.filter((request) => request.path === "/v3/certificates").length;

describe("platform certificates", () => {
  it("answers signed by the configured certificate verify, and the client names it in Wechatpay-Serial", async () => {
    await control("/mode", { mode: "certificate" });
    const { client } = testClient(certificateConfig());
    expect(client.keys.preferredSerial()).toBe(testPlatformCertificates.A.serial);
    expect((await client.createNativeOrder(order())).outcome).toBe("ok");
    expect(await downloads()).toBe(0);
  });

  it("rotation: an answer signed by a new certificate makes the client download, verify and keep it, once", async () => {
    await control("/mode", { mode: "certificate" });
    const { client } = testClient(certificateConfig());
    await control("/certificates/rotate", {});
    const input = order();
    expect((await client.createNativeOrder(input)).outcome).toBe("ok");
    expect(client.keys.knownSerials()).toContain(testPlatformCertificates.B.serial);
    expect((await client.queryOrder(input.outTradeNo)).outcome).toBe("ok");
    expect(await downloads()).toBe(1);
  });

  it("refreshCertificates downloads and unseals every issued certificate", async () => {
    await control("/mode", { mode: "certificate" });
    await control("/certificates/rotate", {});
    const { client } = testClient(certificateConfig());
    expect(await client.refreshCertificates()).toMatchObject({
      outcome: "ok",
      data: { serials: [testPlatformCertificates.A.serial, testPlatformCertificates.B.serial] },
    });
  });

  it("a certificate download whose answer was tampered with is not trusted", async () => {
    await control("/mode", { mode: "certificate" });
    await control("/certificates/rotate", {});
    await control("/faults", { kind: "tamper_body", path: "/v3/certificates" });
    const { client } = testClient(certificateConfig());
    expect(await client.createNativeOrder(order())).toMatchObject({ outcome: "unknown", verification: "unknown_serial" });
    expect(client.keys.knownSerials()).not.toContain(testPlatformCertificates.B.serial);
  });

  it("a merchant in public-key mode has no certificates to download", async () => {
    const { client } = testClient(certificateConfig());
    expect(await client.refreshCertificates()).toMatchObject({ outcome: "failed", status: 404, code: "NOT_FOUND" });
  });

  it("during a migration, the request's Wechatpay-Serial chooses the key that signs the answer", async () => {
    await control("/mode", { mode: "both" });
    const withPublicKey = testClient({ platformCertificates: [testPlatformCertificates.A.certificatePem] });
    expect(withPublicKey.client.keys.preferredSerial()).toBe(testWechatPublicKey.id);
    expect((await withPublicKey.client.createNativeOrder(order())).outcome).toBe("ok");
    const withCertificate = testClient(certificateConfig());
    expect((await withCertificate.client.createNativeOrder(order())).outcome).toBe("ok");
  });
});
