import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

type Envelope = { path: string; items: unknown[] };

async function envelopesMentioning(text: string): Promise<Envelope[]> {
  for (let tries = 0; tries < 50; tries += 1) {
    const all = (await (await fetch(`${env.SENTRY_SINK_URL}/envelopes`)).json()) as Envelope[];
    const found = all.filter((envelope) => JSON.stringify(envelope.items).includes(text));
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}

describe("error reporting from the edge worker (to a local Sentry endpoint)", () => {
  it("reports a failure of the origin behind the proxy", async () => {
    const response = await exports.default.fetch(new Request("https://paydesk.test/api/crash", { method: "POST" }));
    expect(response.status).toBeGreaterThanOrEqual(500);
    const envelopes = await envelopesMentioning("the origin crashed");
    expect(envelopes.length).toBeGreaterThan(0);
    expect(envelopes[0]?.path).toMatch(/^\/api\/1\/envelope\//);
  });
});
