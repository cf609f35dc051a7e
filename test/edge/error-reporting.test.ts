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
