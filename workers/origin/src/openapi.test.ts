import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createOriginApp, openApiPath } from "./app";

/**
 * The one exception to "every route is documented": local emulation's stand-ins for the payer,
 * for WeChat's authorize page and for WeChat Pay's merchant platform, routed only where the
 * WeChat Pay simulator is bound and never part of the published contract.
 */
const emulationRoutes = [
  "GET /api/payments/wechat/simulator/cashier",
  "GET /api/payments/wechat/simulator/connect/oauth2/authorize",
  "POST /api/payments/wechat/simulator/cashier",
  "POST /api/payments/wechat/simulator/merchant-platform/refunds/{outRefundNo}/pay-out",
  "POST /api/payments/wechat/simulator/pay",
];

const app = await createOriginApp();

describe("the published contract", () => {
  it("documents every route of the router, and nothing else (the emulation routes are routed, never documented)", async () => {
    for (const emulation of [false, true]) {
      const emulated = await createOriginApp({ emulation });
      const response = await emulated.request(openApiPath, {}, env);
      expect(response.status).toBe(200);
      const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(document.openapi).toBe("3.1.0");
      const documented = Object.entries(document.paths)
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      const routed = emulated.routes
        .filter((route) => route.method !== "ALL" && route.path !== openApiPath)
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`)
        .sort();
      expect(new Set(routed).size).toBeGreaterThan(0);
      const undocumented = emulation ? emulationRoutes : [];
      expect([...new Set(routed.filter((route) => emulationRoutes.includes(route)))], `emulation: ${emulation}`).toEqual(undocumented);
      expect(documented, `emulation: ${emulation}`).toEqual([...new Set(routed.filter((route) => !undocumented.includes(route)))]);
    }
  });

  it("generates request schemas from the validating schemas (unknown fields refused)", async () => {
    const document = (await (await app.request(openApiPath, {}, env)).json()) as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } } }>;
    };
    const schema = document.paths["/api/user/register"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(schema).toMatchObject({ type: "object", additionalProperties: false, required: ["handle", "password", "displayName"] });
  });
});
