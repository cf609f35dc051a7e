import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

async function page(path: string): Promise<string> {
  const response = await exports.default.fetch(new Request(`https://paydesk.test${path}?limits=${crypto.randomUUID()}`));
  expect(response.status).toBe(200);
  return response.text();
}

describe("a deploy at the product's money limits", () => {
  it("sends no limits in the public configuration: the pages hold the defaults", async () => {
    const html = await page("/transfer");
    const config = JSON.parse(/<script type="application\/json" id="paydesk-config"[^>]*>([^<]*)<\/script>/.exec(html)?.[1] ?? "null");
    expect(config).toMatchObject({ shortLinkHosts: expect.any(Array) });
    expect(config).not.toHaveProperty("limits");
  });

  it("states the defaults on /help", async () => {
    expect(await page("/help")).toContain("From ¥0.01 to ¥50,000.00 per transfer, and up to ¥100,000.00 in total per day.");
  });
});
