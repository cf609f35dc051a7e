import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createOriginApp, openApiPath } from "./app";

describe("the published contract", () => {
  const app = createOriginApp();

  it("documents every route of the router, and nothing else", async () => {
    const response = await app.request(openApiPath, {}, env);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.1.0");
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const routed = app.routes
      .filter((route) => route.method !== "ALL" && route.path !== openApiPath)
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`)
      .sort();
    expect(new Set(routed).size).toBeGreaterThan(0);
    expect(documented).toEqual([...new Set(routed)]);
  });

  it("generates request schemas from the validating schemas (unknown fields refused)", async () => {
    const document = (await (await app.request(openApiPath, {}, env)).json()) as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } } }>;
    };
    const schema = document.paths["/api/user/register"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(schema).toMatchObject({ type: "object", additionalProperties: false, required: ["handle", "password", "displayName"] });
  });
});
