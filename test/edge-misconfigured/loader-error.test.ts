import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { pageConfigOf } from "../support/page-config";
import { envelopesMentioning } from "../support/sentry-sink-client";

describe("a loader that throws (CONTACT_EMAIL is not an email address)", () => {
  it("answers the error page and reports the error to Sentry", async () => {
    const response = await exports.default.fetch(new Request("https://paydesk.test/contact"));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("Something went wrong");
    expect(await envelopesMentioning(env.SENTRY_SINK_URL, "CONTACT_EMAIL is not set to an email address")).not.toHaveLength(0);
  });

  it("reports it from /__serverLoader too, answering 500 INTERNAL_ERROR", async () => {
    const response = await exports.default.fetch(new Request("https://paydesk.test/__serverLoader?route=contact&url=/contact"));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: "INTERNAL_ERROR" });
  });
});

describe("a money limits setting that cannot be read (MONEY_LIMITS loosens a limit)", () => {
  const named = "MONEY_LIMITS.transfer.max may only tighten";

  it("fails the pages that state the limits, reported", async () => {
    const response = await exports.default.fetch(new Request(`https://paydesk.test/tos?limits=${crypto.randomUUID()}`));
    expect(response.status).toBe(500);
    expect(await envelopesMentioning(env.SENTRY_SINK_URL, named)).not.toHaveLength(0);
  });

  it("leaves every other page standing, without limits in its configuration", async () => {
    const response = await exports.default.fetch(new Request(`https://paydesk.test/login?limits=${crypto.randomUUID()}`));
    expect(response.status).toBe(200);
    const config = pageConfigOf(await response.text());
    expect(config).toMatchObject({ shortLinkHosts: expect.any(Array) });
    expect(config).not.toHaveProperty("limits");
    expect(config).not.toHaveProperty("timeLimits");
    expect(config).not.toHaveProperty("taskLimits");
    expect(config).not.toHaveProperty("textLimits");
    // Named as unread, so a screen states no figure of them (app/deploy-settings.ts).
    expect(config?.unread).toEqual(["limits", "timeLimits", "taskLimits", "textLimits"]);
    // TIME_LIMITS lengthens a claim's 24 hours: reported, and left out like the money limits.
    expect(await envelopesMentioning(env.SENTRY_SINK_URL, "TIME_LIMITS.claim.submitHours may only shorten")).not.toHaveLength(0);
    // TASK_LIMITS allows 5,000 completions: reported, and left out too.
    expect(await envelopesMentioning(env.SENTRY_SINK_URL, "TASK_LIMITS.slots.max may only tighten")).not.toHaveLength(0);
    expect(await envelopesMentioning(env.SENTRY_SINK_URL, "TEXT_LIMITS.transfer.note may only shorten")).not.toHaveLength(0);
  });
});

describe("LOCKS and TIME_LIMITS settings that cannot be read (one failure; a claim's 36 hours)", () => {
  it("fail /help, which states both, in one report naming every setting that is wrong", async () => {
    const response = await exports.default.fetch(new Request(`https://paydesk.test/help?locks=${crypto.randomUUID()}`));
    expect(response.status).toBe(500);
    const reports = await envelopesMentioning(env.SENTRY_SINK_URL, "LOCKS.signIn.failures (1) is below 3");
    expect(reports.map((report) => JSON.stringify(report))).toContainEqual(
      expect.stringMatching(
        /MONEY_LIMITS\.transfer\.max may only tighten.*TIME_LIMITS\.claim\.submitHours may only shorten.*TASK_LIMITS\.slots\.max.*TEXT_LIMITS\.transfer\.note.*LOCKS\.signIn/,
      ),
    );
  });

  it("fail /tos, which states the time limits but not the locks", async () => {
    const marker = crypto.randomUUID();
    const response = await exports.default.fetch(new Request(`https://paydesk.test/tos?times=${marker}`));
    expect(response.status).toBe(500);
    const reports = (await envelopesMentioning(env.SENTRY_SINK_URL, marker)).map((envelope) => JSON.stringify(envelope));
    // The page's configuration reports each setting it leaves out; the loader, all it needs in one.
    expect(reports.some((text) => /MONEY_LIMITS\.transfer\.max may only tighten[^"]*TIME_LIMITS\.claim\.submitHours/.test(text))).toBe(
      true,
    );
    expect(reports.filter((text) => text.includes("LOCKS.signIn"))).toEqual([]);
  });
});
