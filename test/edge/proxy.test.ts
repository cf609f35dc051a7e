import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { originTimeoutMs, proxyToOrigin } from "../../workers/edge/origin-proxy";

type Echo = { count: number; method: string; path: string; search: string; headers: Record<string, string>; body: string };

function edge(path: string, init?: RequestInit) {
  return exports.default.fetch(new Request(`https://paydesk.test${path}`, init));
}

describe("the /api/* proxy", () => {
  it("passes method, path, query, body and the contract's headers to the origin", async () => {
    const response = await edge("/api/echo?page=2&q=a%20b", {
      method: "POST",
      headers: {
        Authorization: "Bearer tok_0123456789abcdef",
        Cookie: "sid=abc",
        "Content-Type": "application/json",
        "Idempotency-Key": "key-123",
        "CF-Connecting-IP": "203.0.113.7",
        "X-Forwarded-For": "10.0.0.1",
        Connection: "keep-alive, X-Hop",
        "X-Hop": "must-not-pass",
        "Keep-Alive": "timeout=5",
      },
      body: JSON.stringify({ amount: 100 }),
    });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ method: "POST", path: "/api/echo", search: "?page=2&q=a%20b", body: '{"amount":100}' });
    expect(echo.headers).toMatchObject({
      authorization: "Bearer tok_0123456789abcdef",
      cookie: "sid=abc",
      "content-type": "application/json",
      "idempotency-key": "key-123",
      // From Cloudflare's view of the client, never the client's own claim.
      "x-forwarded-for": "203.0.113.7",
      "x-real-ip": "203.0.113.7",
    });
    expect(echo.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("X-Request-Id")).toBe(echo.headers["x-request-id"]);
    for (const hop of ["connection", "keep-alive", "x-hop"]) expect(echo.headers).not.toHaveProperty(hop);
  });

  it("passes a chunked request body through whole", async () => {
    const chunks = ["first,", "second,", "third"];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const response = await edge("/api/echo", { method: "PUT", body, headers: { "Content-Type": "text/plain" } });
    expect(((await response.json()) as Echo).body).toBe(chunks.join(""));
  });

  it("returns every Set-Cookie and strips hop-by-hop answer headers", async () => {
    const response = await edge("/api/echo");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; HttpOnly"]);
    expect(response.headers.has("Keep-Alive")).toBe(false);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("never caches an API answer, even one the origin marks public", async () => {
    const first = (await (await edge("/api/echo")).json()) as Echo;
    const again = await edge("/api/echo");
    expect(again.headers.get("Cache-Control")).toBe("no-store");
    expect(again.headers.get("X-Edge-Cache")).toBeNull();
    expect(((await again.json()) as Echo).count).toBeGreaterThan(first.count);
  });

  it("passes the origin's own error answers through unchanged", async () => {
    const response = await edge("/api/unknown", { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: "NOT_FOUND" });
  });

  it("answers a 5xx that is not the contract's JSON (a zone's error page) as 502 ORIGIN_UNAVAILABLE, passing the origin's own 5xx through", async () => {
    const zone = await edge("/api/zone-down");
    expect(zone.status).toBe(502);
    expect(zone.headers.get("Content-Type")).toContain("application/json");
    const body = await zone.text();
    expect(JSON.parse(body)).toMatchObject({ code: "ORIGIN_UNAVAILABLE" });
    expect(body).not.toContain("origin.internal.example");
    const own = await edge("/api/json-503");
    expect(own.status).toBe(503);
    expect(await own.json()).toEqual({ code: "WECHAT_PAY_UNAVAILABLE" });
  });

  it("answers 502 ORIGIN_UNAVAILABLE when the origin cannot be reached", async () => {
    const request = new Request("https://paydesk.test/api/user/session", { method: "POST" });
    const response = await proxyToOrigin(request, { ORIGIN_URL: "http://127.0.0.1:9" });
    expect(response.status).toBe(502);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ code: "ORIGIN_UNAVAILABLE", message: expect.any(String) });
  });

  it("answers 502 when no origin is configured at all", async () => {
    const response = await proxyToOrigin(new Request("https://paydesk.test/api/x"), {});
    expect(response.status).toBe(502);
  });

  it("answers 504 ORIGIN_TIMEOUT when the origin does not answer in time", async () => {
    const started = Date.now();
    const response = await proxyToOrigin(new Request("https://paydesk.test/api/slow"), { ORIGIN: env.ORIGIN }, { timeoutMs: 300 });
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ code: "ORIGIN_TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("presents EDGE_SECRET to the origin, and never passes on a client's own X-Edge-Secret", async () => {
    const forged = () =>
      new Request("https://paydesk.test/api/echo", {
        headers: { "X-Edge-Secret": "guessed-by-a-client", "CF-Connecting-IP": "203.0.113.7" },
      });
    const secret = "a-shared-secret-of-at-least-32-characters";
    const withSecret = (await (await proxyToOrigin(forged(), { ORIGIN: env.ORIGIN, EDGE_SECRET: secret })).json()) as Echo;
    expect(withSecret.headers["x-edge-secret"]).toBe(secret);
    const without = (await (await proxyToOrigin(forged(), { ORIGIN: env.ORIGIN })).json()) as Echo;
    expect(without.headers).not.toHaveProperty("x-edge-secret");
    // Over the binding, nothing says "from the internet": the origin trusts it (workers/origin/src/http/edge-trust.ts).
    expect(without.headers).not.toHaveProperty("cf-connecting-ip");
    expect(without.headers["x-real-ip"]).toBe("203.0.113.7");
  });

  it("passes Cloudflare Access's assertion on to the origin, which checks it before /api/ops/*, and no other cf-* header", async () => {
    const request = new Request("https://paydesk.test/api/echo", {
      headers: { "Cf-Access-Jwt-Assertion": "a.b.c", "CF-Connecting-IP": "203.0.113.7", "CF-IPCountry": "BR", "CF-Ray": "8f00" },
    });
    const echo = (await (await proxyToOrigin(request, { ORIGIN: env.ORIGIN })).json()) as Echo;
    expect(echo.headers["cf-access-jwt-assertion"]).toBe("a.b.c");
    expect(Object.keys(echo.headers).filter((name) => name.startsWith("cf-"))).toEqual(["cf-access-jwt-assertion"]);
  });

  it("tells the origin roughly where the client is, from Cloudflare's view only, percent-encoded", async () => {
    const request = new Request("https://paydesk.test/api/echo", {
      headers: { "X-Client-Place": "forged by a client" },
      cf: { city: "São Paulo", region: "São Paulo", country: "BR" },
    } as RequestInit);
    const echo = (await (await proxyToOrigin(request, { ORIGIN: env.ORIGIN })).json()) as Echo;
    expect(decodeURIComponent(echo.headers["x-client-place"] ?? "")).toBe("São Paulo, São Paulo, BR");
    const unknown = (await (await edge("/api/echo", { headers: { "X-Client-Place": "forged by a client" } })).json()) as Echo;
    expect(unknown.headers["x-client-place"]).not.toBe("forged by a client");
  });

  it("waits 10 s for the origin by default", () => {
    expect(originTimeoutMs).toBe(10_000);
  });
});
