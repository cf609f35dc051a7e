import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { pageConfigOf } from "../support/page-config";

async function page(path: string): Promise<string> {
  const response = await exports.default.fetch(new Request(`https://paydesk.test${path}?limits=${crypto.randomUUID()}`));
  expect(response.status).toBe(200);
  return response.text();
}

describe("a deploy at the product's money limits", () => {
  it("sends no limits in the public configuration: the pages hold the defaults", async () => {
    const config = pageConfigOf(await page("/transfer"));
    expect(config).toMatchObject({ shortLinkHosts: expect.any(Array) });
    expect(config).not.toHaveProperty("limits");
    expect(config).not.toHaveProperty("timeLimits");
    expect(config).not.toHaveProperty("unread");
  });

  it("states the defaults on /help", async () => {
    expect(await page("/help")).toContain("From ¥0.01 to ¥50,000.00 per transfer, and up to ¥100,000.00 in total per day.");
  });

  it("states the product's time limits on /help and /tos, worded as before they were a deploy's (docs/decisions/055-deploy-time-limits.md)", async () => {
    const help = await page("/help");
    expect(help).toContain("30 minutes. An unpaid order closes after that");
    expect(help).toContain("submit your proof within 24 hours (or by the deadline, if sooner)");
    expect(help).toContain("unchecked submissions are approved automatically after 72 hours.");
    expect(await page("/tos")).toContain("Submissions you have not checked within 72 hours are approved automatically.");
  });

  it("states the product's locks on /help, worded as before they were a deploy's (docs/decisions/054-deploy-locks.md)", async () => {
    const help = await page("/help");
    expect(help).toContain("After 5 wrong codes within 10 minutes, redeeming is paused for 10 minutes to protect codes from guessing.");
    expect(help).toContain("After 10 failed sign-ins within 15 minutes, signing in to that handle is paused for 15 minutes.");
  });
});
