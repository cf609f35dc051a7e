import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { reportingErrors } from "../../workers/edge/error-reporting";

// Sentry's SDK as if its chunk could not be loaded.
vi.mock("../../workers/edge/sentry-sdk", () => {
  throw new Error("the SDK's chunk is missing");
});

describe("the edge's error reporting when Sentry's SDK cannot be loaded", () => {
  it("answers every request without it: reporting never costs a visitor their page", async () => {
    const handler = reportingErrors(async () => new Response("the page"));
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await handler.fetch?.(
        new Request("https://paydesk.test/help") as Parameters<NonNullable<typeof handler.fetch>>[0],
        { ...env, SENTRY_DSN: "https://public@127.0.0.1:9/1" },
        createExecutionContext(),
      );
      expect(await response?.text()).toBe("the page");
    }
  });
});
