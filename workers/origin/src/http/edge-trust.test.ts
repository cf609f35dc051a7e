import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { wechatTestEnv } from "../../test/wechat-support";
import { createOriginApp } from "../app";
import type { OriginEnv } from "../origin-env";
import { ApiError, failure } from "./answer";
import { edgeOnly, edgeSecretHeader } from "./edge-trust";

const secret = "a-shared-secret-of-at-least-32-characters";
const withSecret = { ...env, EDGE_SECRET: secret };
const fromInternet = { "CF-Connecting-IP": "198.51.100.77" };

const app = await createOriginApp();

describe("the origin answers only the edge", () => {
  const health = (headers: Record<string, string>, bindings: Env = env) => app.request("/api/health", { headers }, bindings);

  it("without EDGE_SECRET: answers what came over the service binding, refuses what came from the internet (CF-Connecting-IP)", async () => {
    expect((await health({})).status).toBe(200);
    const refused = await health(fromInternet);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "EDGE_REQUIRED", message: expect.any(String) });
    // A route that exists for the edge does not reveal itself to anyone else, nor its methods.
    const register = await app.request("/api/user/register", { method: "DELETE", headers: fromInternet }, env);
    expect(register.status).toBe(403);
    expect(register.headers.get("Allow")).toBeNull();
  });

  it("with EDGE_SECRET: answers only a request that presents it, wherever it came from", async () => {
    expect((await health({}, withSecret)).status).toBe(403);
    expect((await health({ [edgeSecretHeader]: `${secret}x` }, withSecret)).status).toBe(403);
    expect((await health({ [edgeSecretHeader]: secret.slice(0, -1) }, withSecret)).status).toBe(403);
    expect((await health({ [edgeSecretHeader]: secret }, withSecret)).status).toBe(200);
    // Through ORIGIN_URL the request comes from the internet (the edge's own fetch): the secret decides.
    expect((await health({ ...fromInternet, [edgeSecretHeader]: secret }, withSecret)).status).toBe(200);
  });

  it("treats a secret shorter than 32 characters as unset: the binding alone is trusted", async () => {
    const weak = { ...env, EDGE_SECRET: "short" };
    expect((await health({}, weak)).status).toBe(200);
    expect((await health({ ...fromInternet, [edgeSecretHeader]: "short" }, weak)).status).toBe(403);
  });

  it("lets WeChat Pay's signed notifications through from the internet, to be judged by their signature", async () => {
    for (const bindings of [wechatTestEnv(), wechatTestEnv({ EDGE_SECRET: secret })]) {
      for (const path of ["/api/payments/wechat/notify", "/api/payments/wechat/refund-notify"]) {
        const answer = await app.request(
          path,
          { method: "POST", headers: { ...fromInternet, "Content-Type": "application/json" }, body: "{}" },
          bindings,
        );
        // Unsigned, so WeChat Pay's refusal (401, it sends again), not the edge's.
        expect(answer.status, path).toBe(401);
      }
    }
  });
});

describe("the client address the origin believes", () => {
  // The middleware alone, on a path WeChat Pay may call directly, echoing what it believed.
  const probe = new Hono<OriginEnv>();
  probe.use(edgeOnly);
  probe.all("*", (c) => c.json({ clientIp: c.var.clientIp }));
  probe.onError((error, c) => (error instanceof ApiError ? failure(c, error) : c.text("unexpected", 500)));
  const believed = async (headers: Record<string, string>, bindings: Env = env) => {
    const answer = await probe.request("/api/payments/wechat/notify", { method: "POST", headers }, bindings);
    return ((await answer.json()) as { clientIp: string | null }).clientIp;
  };

  it("is the edge's X-Real-IP on a request from the edge", async () => {
    expect(await believed({ "X-Real-IP": "203.0.113.7" })).toBe("203.0.113.7");
    expect(await believed({ "X-Real-IP": "203.0.113.7", ...fromInternet, [edgeSecretHeader]: secret }, withSecret)).toBe("203.0.113.7");
    expect(await believed({})).toBeNull();
  });

  it("is Cloudflare's CF-Connecting-IP on anything else: a forged X-Real-IP is not believed", async () => {
    expect(await believed({ "X-Real-IP": "203.0.113.7", ...fromInternet })).toBe("198.51.100.77");
    expect(await believed({ "X-Real-IP": "203.0.113.7", ...fromInternet, [edgeSecretHeader]: "wrong" }, withSecret)).toBe("198.51.100.77");
    expect(await believed({ "X-Real-IP": "203.0.113.7" }, withSecret)).toBeNull();
  });
});
