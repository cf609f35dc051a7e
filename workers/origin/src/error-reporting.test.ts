import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { envelopesMentioning } from "../../../test/support/sentry-sink-client";
import worker from "./index";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_SENTRY_DSN: string;
      SENTRY_SINK_URL: string;
    }
  }
}

/** A database that fails every statement with `message`. */
const brokenDatabase = (message: string) => {
  const fails = () => Promise.reject(new Error(message));
  const statement = { bind: () => statement, first: fails, run: fails, all: fails, raw: fails };
  return { prepare: () => statement, batch: fails } as unknown as D1Database;
};

async function ready(message: string, dsn: string): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch?.(
    new Request("https://paydesk.test/api/health/ready") as Parameters<NonNullable<typeof worker.fetch>>[0],
    { ...env, DB: brokenDatabase(message), SENTRY_DSN: dsn },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  if (!response) throw new Error("the origin has no fetch handler");
  return response;
}

describe("error reporting from the origin (to a local Sentry endpoint)", () => {
  it("loads Sentry and reports an unhandled error when a DSN is configured", { timeout: 30_000 }, async () => {
    const message = `the database vanished ${crypto.randomUUID()}`;
    const response = await ready(message, env.TEST_SENTRY_DSN);
    expect(response.status).toBe(500);
    const envelopes = await envelopesMentioning(env.SENTRY_SINK_URL, message);
    expect(envelopes.length).toBeGreaterThan(0);
    expect(envelopes[0]?.path).toMatch(/^\/api\/1\/envelope\//);
  });

  it("sends no password, token, cookie, address, place or recovery link of the request it reports", { timeout: 30_000 }, async () => {
    const message = `the database vanished mid sign-in ${crypto.randomUUID()}`;
    const password = `secret-password-${crypto.randomUUID()}`;
    const token = `bearer-${crypto.randomUUID()}`;
    const cookie = `paydesk=${crypto.randomUUID()}`;
    const link = `recovery-${crypto.randomUUID()}`;
    const [address, place] = ["203.0.113.77", "Hangzhou, Zhejiang"];
    const ctx = createExecutionContext();
    const response = await worker.fetch?.(
      new Request(`https://paydesk.test/api/user/login?link=${link}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          Cookie: cookie,
          "X-Real-IP": address,
          "X-Forwarded-For": address,
          "X-Client-Place": place,
        },
        body: JSON.stringify({ handle: "alice_01", password }),
      }) as Parameters<NonNullable<typeof worker.fetch>>[0],
      { ...env, DB: brokenDatabase(message), SENTRY_DSN: env.TEST_SENTRY_DSN },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response?.status).toBe(500);
    const envelopes = await envelopesMentioning(env.SENTRY_SINK_URL, message);
    expect(envelopes.length).toBeGreaterThan(0);
    const sent = JSON.stringify(envelopes);
    // The report says where it happened, and nothing a person typed or holds.
    expect(sent).toContain("/api/user/login");
    for (const secret of [password, token, cookie.split("=")[1] ?? cookie, link, address, place]) expect(sent).not.toContain(secret);
  });

  it("reports a broken ledger that the cron's check finds", { timeout: 30_000 }, async () => {
    const account = `acc_broken_${crypto.randomUUID()}`;
    await env.DB.prepare("INSERT INTO account (id, owner_id, kind, available) VALUES (?1, NULL, 'escrow', 7)").bind(account).run();
    try {
      const ctx = createExecutionContext();
      // Far in the future: whatever checks other tests recorded, this one is due.
      const scheduledTime = Date.now() + 365 * 24 * 60 * 60 * 1000;
      await worker.scheduled?.(
        { scheduledTime, cron: "* * * * *", noRetry() {} } as ScheduledController,
        { ...env, SENTRY_DSN: env.TEST_SENTRY_DSN },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      const envelopes = await envelopesMentioning(env.SENTRY_SINK_URL, "The ledger's check found");
      expect(envelopes.length).toBeGreaterThan(0);
    } finally {
      await env.DB.prepare("DELETE FROM account WHERE id = ?1").bind(account).run();
    }
  });

  it("sends nothing without a DSN", async () => {
    const message = `the database vanished quietly ${crypto.randomUUID()}`;
    expect((await ready(message, "")).status).toBe(500);
    const all = (await (await fetch(`${env.SENTRY_SINK_URL}/envelopes`)).json()) as unknown[];
    expect(JSON.stringify(all)).not.toContain(message);
  });
});
