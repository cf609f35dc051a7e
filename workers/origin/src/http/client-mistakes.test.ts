import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createOriginApp } from "../app";
import { resetDatabase, seedUser } from "../../test/origin-client";
import { maxBodyBytes } from "./client-mistakes";

const app = await createOriginApp();
const register = JSON.stringify({ handle: "mistake_01", password: "long enough password", displayName: "Mistake" });
const send = (path: string, init: RequestInit) => app.request(path, init, env);

async function envelope(response: Response) {
  return (await response.json()) as { code: string; message?: string };
}

beforeEach(resetDatabase);

// docs/api-contract.md: a client's mistake is a 4xx in the envelope, never a 500.
describe("a request the client got wrong", () => {
  it.each([
    ["text/plain", { "Content-Type": "text/plain" }],
    ["form-encoded", { "Content-Type": "application/x-www-form-urlencoded" }],
    ["no Content-Type at all", {}],
  ])("with a valid JSON body sent as %s is 415 UNSUPPORTED_MEDIA_TYPE", async (_, headers: Record<string, string>) => {
    const response = await send("/api/user/register", {
      method: "POST",
      headers: { "Idempotency-Key": "mistake-key-1", ...headers },
      body: register,
    });
    expect(response.status).toBe(415);
    expect(await envelope(response)).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
  });

  it("with a declared body over the limit is 413 PAYLOAD_TOO_LARGE", async () => {
    const body = JSON.stringify({ handle: "x".repeat(maxBodyBytes) });
    const response = await send("/api/user/login", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(response.status).toBe(413);
    expect(await envelope(response)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("with a streamed body over the limit is 413, read no further than the limit", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.length;
        // An endless body: only a reader that stops at the limit lets this test end.
        controller.enqueue(chunk);
      },
    });
    const response = await send("/api/user/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await envelope(response)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(sent).toBeLessThan(maxBodyBytes * 2);
  });

  it.each([
    ["GET", "/api/user/register", "POST"],
    ["DELETE", "/api/transfers", "POST"],
    ["PUT", "/api/orders/ord_0123456789abcdef0123456789abcdef", "GET"],
  ])("%s %s is 405 METHOD_NOT_ALLOWED with Allow: %s", async (method, path, allowed) => {
    const response = await send(path, { method, headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toContain(allowed);
    expect(await envelope(response)).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
  });

  it("on a path that does not exist is still 404 NOT_FOUND", async () => {
    const response = await send("/api/no/such/thing", { method: "PATCH" });
    expect(response.status).toBe(404);
    expect(await envelope(response)).toMatchObject({ code: "NOT_FOUND" });
  });

  it.each(["Bearer", "bearer", "BEARER", "bEaReR"])(
    "signs in with the %s scheme (RFC 9110: schemes are case-insensitive)",
    async (scheme) => {
      const { token } = await seedUser("scheme_user");
      const response = await send("/api/user/session", { method: "POST", headers: { Authorization: `${scheme} ${token}` } });
      expect(response.status).toBe(200);
      expect(await envelope(response)).toMatchObject({ code: "SUCCESS" });
    },
  );
});
