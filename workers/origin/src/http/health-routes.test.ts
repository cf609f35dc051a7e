import { describe, expect, it } from "vitest";
import { testOrigin } from "../../test/origin-client";

describe("health", () => {
  it("answers liveness without the database and readiness with one round trip to it", async () => {
    const origin = testOrigin();
    const live = await origin.call("/api/health", { method: "GET" });
    expect(await live.json()).toEqual({ code: "SUCCESS", data: { ok: true } });

    const ready = await origin.call("/api/health/ready", { method: "GET" });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ code: "SUCCESS", data: { ok: true, database: true } });
  });

  it("is not ready when the database fails", async () => {
    const broken = { prepare: () => ({ first: () => Promise.reject(new Error("D1 is down")) }) } as unknown as D1Database;
    const ready = await testOrigin().call("/api/health/ready", { method: "GET", db: broken });
    expect(ready.status).toBe(500);
    expect(await ready.json()).toMatchObject({ code: "INTERNAL_ERROR" });
  });
});
