import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { envelopesMentioning } from "../support/sentry-sink-client";

describe("error reporting from the edge worker (to a local Sentry endpoint)", () => {
  it("reports a failure of the origin behind the proxy", async () => {
    const response = await exports.default.fetch(new Request("https://paydesk.test/api/crash", { method: "POST" }));
    expect(response.status).toBeGreaterThanOrEqual(500);
    const envelopes = await envelopesMentioning(env.SENTRY_SINK_URL, "the origin crashed");
    expect(envelopes.length).toBeGreaterThan(0);
    expect(envelopes[0]?.path).toMatch(/^\/api\/1\/envelope\//);
  });
});

describe("what an edge error report carries", () => {
  it("sends no password, token, cookie, address, recovery or sign-in link of the request it reports", async () => {
    const note = `crash-${crypto.randomUUID()}`;
    const password = `secret-password-${crypto.randomUUID()}`;
    const token = `bearer-${crypto.randomUUID()}`;
    const cookie = crypto.randomUUID();
    const link = `recovery-${crypto.randomUUID()}`;
    // Route data names its page in `url`, whose own query may hold a sign-in link.
    const nested = `sign-in-${crypto.randomUUID()}`;
    const address = "203.0.113.78";
    const response = await exports.default.fetch(
      new Request(`https://paydesk.test/api/crash?note=${note}&link=${link}&url=${encodeURIComponent(`/login?token=${nested}`)}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          Cookie: `paydesk=${cookie}`,
          "CF-Connecting-IP": address,
        },
        body: JSON.stringify({ handle: "alice_01", password }),
      }),
    );
    expect(response.status).toBeGreaterThanOrEqual(500);
    const envelopes = await envelopesMentioning(env.SENTRY_SINK_URL, note);
    expect(envelopes.length).toBeGreaterThan(0);
    const sent = JSON.stringify(envelopes);
    expect(sent).toContain("/api/crash");
    for (const secret of [password, token, cookie, link, nested, address]) expect(sent).not.toContain(secret);
  });
});
