import { describe, expect, it } from "vitest";
import { createOriginApp, openApiPath } from "#origin/app";

/**
 * The published contract is kept in the repo as contract/openapi.json, so that a change to
 * the public promise shows in review and the OpenAPI linter (`npm run lint`) reads it. It
 * must be exactly what the origin publishes: `npx vitest run --project unit -u` rewrites it.
 */
describe("contract/openapi.json", () => {
  it("is the document the origin publishes at GET /api/openapi.json", async () => {
    const answer = await (await createOriginApp()).request(openApiPath, {}, {} as Env);
    expect(answer.status).toBe(200);
    await expect(`${JSON.stringify(await answer.json(), null, 2)}\n`).toMatchFileSnapshot("../../contract/openapi.json");
  });
});

describe("the published document", () => {
  type Operation = {
    operationId?: string;
    security?: Record<string, unknown>[];
    parameters?: unknown[];
    requestBody?: unknown;
    responses: Record<string, unknown>;
  };
  const operationsOf = async () => {
    const document = (await (await (await createOriginApp()).request(openApiPath, {}, {} as Env)).json()) as {
      servers?: unknown[];
      paths: Record<string, Record<string, Operation>>;
    };
    return {
      document,
      operations: Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ path, method, op })),
      ),
    };
  };

  it("names every operation once, and says who may call it (an empty requirement for public ones)", async () => {
    const { document, operations } = await operationsOf();
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" })]);
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations) expect(Array.isArray(op.security)).toBe(true);
    expect(operations.filter(({ op }) => op.security?.length === 0).map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(["post /api/user/register", "post /api/user/login", "get /api/health", "post /api/payments/wechat/notify"]),
    );
  });

  it("documents 401 behind the bearer token, 400 wherever there is something to validate, 413 and 415 wherever a body is read", async () => {
    const { operations } = await operationsOf();
    for (const { path, method, op } of operations) {
      const where = `${method} ${path}`;
      if (op.security?.some((requirement) => "bearerAuth" in requirement)) expect(op.responses, where).toHaveProperty("401");
      if ((op.parameters ?? []).length > 0 || op.requestBody) expect(op.responses, where).toHaveProperty("400");
      if (op.requestBody) expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(["413", "415"]));
    }
  });
});

describe("operator roles", () => {
  it("are the same in the published contract as in the origin's rules", async () => {
    const { operatorRoles } = await import("#origin/ops/roles");
    const document = (await (await (await createOriginApp()).request(openApiPath, {}, {} as Env)).json()) as {
      paths: Record<
        string,
        { post?: { requestBody?: { content: Record<string, { schema: { properties: { role: { enum: string[] } } } }> } } }
      >;
    };
    const roleEnum = document.paths["/api/ops/operators"]?.post?.requestBody?.content["application/json"]?.schema.properties.role.enum;
    expect(roleEnum).toEqual([...operatorRoles]);
  });
});
