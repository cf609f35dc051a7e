import { describe, expect, it } from "vitest";
import { errorCodes, errorStatus } from "#contract/error-codes";
import en from "./errors/en";
import zhCN from "./errors/zh-CN";
import { messageFor } from "./errors";

describe("a refusal that names its wait", () => {
  it("says how long, in the page's language, from the answer's Retry-After", async () => {
    expect(await messageFor("REDEEM_LOCKED", "en", { retryAfterSeconds: 125 })).toBe("Too many wrong codes. Try again in 3 minutes.");
    expect(await messageFor("REDEEM_LOCKED", "zh-CN", { retryAfterSeconds: 125 })).toBe("错误的充值码次数过多，请3分钟后再试。");
    expect(await messageFor("RATE_LIMITED", "en", { retryAfterSeconds: 30 })).toBe("Too many attempts from here. Try again in 30 seconds.");
    expect(await messageFor("SIGN_IN_LOCKED", "en", { retryAfterSeconds: 0 })).toBe("Too many failed sign-ins. Try again in 1 second.");
    // A daily limit: until the next day in China, in hours.
    expect(await messageFor("RATE_LIMITED", "en", { retryAfterSeconds: 82_800 })).toBe(
      "Too many attempts from here. Try again in 23 hours.",
    );
    expect(await messageFor("RATE_LIMITED", "zh-CN", { retryAfterSeconds: 82_800 })).toBe("操作过于频繁，请23小时后再试。");
  });

  it("says later when the answer named no wait", async () => {
    expect(await messageFor("SIGN_IN_LOCKED", "en")).toBe("Too many failed sign-ins. Try again later.");
    expect(await messageFor("SIGN_IN_LOCKED", "zh-CN")).toBe("登录失败次数过多，请稍后再试。");
  });

  it("is every 429 of the contract, and only those: no other message holds a wait", () => {
    const waiting = errorCodes.filter((code) => errorStatus[code] === 429).sort();
    for (const catalogue of [en, zhCN]) {
      expect(errorCodes.filter((code) => catalogue[code].includes("{wait}")).sort()).toEqual(waiting);
    }
  });
});

describe("the day's transfer limit in a refusal", () => {
  it("is the product's figure where the page was given none, in the page's language", async () => {
    expect(await messageFor("DAILY_LIMIT_EXCEEDED", "en")).toBe("This would take you over the daily limit of ¥100,000.00 sent.");
    expect(await messageFor("DAILY_LIMIT_EXCEEDED", "zh-CN")).toBe("超出每日转账限额 ¥100,000.00。");
  });

  it("is the figure the page was given", async () => {
    expect(await messageFor("DAILY_LIMIT_EXCEEDED", "en", { dailyLimit: 5_000 })).toBe(
      "This would take you over the daily limit of ¥50.00 sent.",
    );
    expect(await messageFor("DAILY_LIMIT_EXCEEDED", "zh-CN", { dailyLimit: 5_000 })).toBe("超出每日转账限额 ¥50.00。");
  });

  it("is named by that refusal alone", () => {
    for (const catalogue of [en, zhCN]) {
      expect(errorCodes.filter((code) => catalogue[code].includes("{dailyLimit}"))).toEqual(["DAILY_LIMIT_EXCEEDED"]);
    }
  });
});
