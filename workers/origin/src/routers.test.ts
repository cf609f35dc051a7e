import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createOriginApp, openApiPath } from "./app";
import worker from "./index";
import { routerMounts, segmentOf } from "./routers";
import { simulatorBound } from "./wechat-pay/config";

async function callWorker(method: string, path: string): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch?.(
    new Request(`http://origin.test${path}`, { method }) as Parameters<NonNullable<typeof worker.fetch>>[0],
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  if (!response) throw new Error("The origin worker has no fetch handler");
  return response;
}

/** An envelope's code and the names in its data. */
function shapeOf(body: string) {
  const { code, data } = JSON.parse(body) as { code: string; data?: object };
  return { code, fields: Object.keys(data ?? {}).sort() };
}

describe("the routers, loaded on the first request under their segment", () => {
  it("every router's paths start with a segment it is loaded for", async () => {
    for (const { at, segments, load } of routerMounts) {
      const paths = (await load()).routes.filter((route) => route.method !== "ALL").map((route) => `${at}${route.path}`);
      expect(paths.length, at).toBeGreaterThan(0);
      for (const path of paths) {
        expect(segments, `${at}: ${path}`).toContain(segmentOf(path));
      }
    }
  });

  it("the worker answers each route's first request exactly as the whole API does, the document included", async () => {
    const whole = await createOriginApp({ emulation: simulatorBound(env) });
    const requests = whole.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => [route.method, route.path.replace(/:\w+/g, "x")] as const)
      // A method a path does not take (405), a path no router has (404), one spelled with an escape.
      .concat([
        ["PATCH", "/api/transfers"],
        ["GET", "/api/no-such-segment"],
        ["GET", "/elsewhere"],
        ["GET", "/api/%74ransfers/recipient"],
      ]);
    expect(new Set(requests.map(([, path]) => segmentOf(path))).size).toBeGreaterThan(10);
    for (const [method, path] of requests) {
      const cold = await callWorker(method, path);
      const expected = await whole.request(path, { method }, env);
      expect(cold.status, `${method} ${path}`).toBe(expected.status);
      expect(cold.headers.get("Allow"), `${method} ${path}`).toBe(expected.headers.get("Allow"));
      const [coldBody, expectedBody] = [await cold.text(), await expected.text()];
      // A success may carry what is fresh on every call (a passkey challenge): its shape must match.
      if (cold.ok && path !== openApiPath) expect(shapeOf(coldBody), `${method} ${path}`).toEqual(shapeOf(expectedBody));
      else expect(coldBody, `${method} ${path}`).toBe(expectedBody);
    }
    expect(requests).toContainEqual(["GET", openApiPath]);
  });
});
