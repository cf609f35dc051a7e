import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defaultLimits } from "#contract/money-limits";
import { pageConfigOf } from "../support/page-config";

/**
 * This project's deploy (vitest.config.ts): ¥20.00 a transfer, ¥50.00 a day; recharges from
 * ¥10.00; rewards up to ¥5.00. Sign-in locks after 5 failures for an hour; wrong codes count for 30 minutes.
 * Orders wait 15 minutes, claims 12 hours, and posters have 48 hours to check; a session ends after 7 days unused.
 * A task asks for at most 50 completions, due between 24 hours and 7 days ahead. A note has at
 * most 60 characters, a message to support 1,000.
 */
async function page(path: string, language = "en"): Promise<string> {
  const response = await exports.default.fetch(
    new Request(`https://paydesk.test${path}?limits=${crypto.randomUUID()}`, { headers: { Cookie: `lang=${language}` } }),
  );
  expect(response.status).toBe(200);
  return response.text();
}

describe("a deploy with money limits of its own", () => {
  it("gives the pages its limits in the public configuration", async () => {
    expect(pageConfigOf(await page("/transfer"))?.limits).toEqual({
      recharge: { min: 1_000, max: defaultLimits.recharge.max },
      transfer: { min: 1, max: 2_000, perDay: 5_000 },
      taskReward: { min: 10, max: 500 },
    });
  });

  it("states them on /help and /tos, in both languages", async () => {
    const help = await page("/help");
    expect(help).toContain("From ¥0.01 to ¥20.00 per transfer, and up to ¥50.00 in total per day.");
    expect(help).toContain("choose an amount between ¥10.00 and ¥5,000.00");
    expect(help).toContain("set a reward between ¥0.10 and ¥5.00 per completion");
    expect(help).not.toContain("¥50,000.00");
    expect(await page("/help", "zh-CN")).toContain("每笔 ¥0.01 至 ¥20.00，每日累计最多 ¥50.00。");
    expect(await page("/tos")).toContain("(¥0.01 to ¥20.00 each and ¥50.00 per day)");
    expect(await page("/tos", "zh-CN")).toContain("每笔订单 ¥10.00 至 ¥5,000.00");
  });
});

describe("a deploy with locks of its own (docs/decisions/054-deploy-locks.md)", () => {
  it("states them on /help, in both languages", async () => {
    const help = await page("/help");
    expect(help).toContain("After 5 failed sign-ins within 15 minutes, signing in to that handle is paused for 1 hour.");
    expect(help).toContain("After 5 wrong codes within 30 minutes, redeeming is paused for 10 minutes");
    const zh = await page("/help", "zh-CN");
    expect(zh).toContain("如果某个用户名在 15 分钟内登录失败达 5 次，该用户名的登录将暂停 1 小时。");
    expect(zh).toContain("如果 30 分钟内输错 5 次，兑换功能将暂停 10 分钟。");
  });

  it("keeps them out of the pages' configuration: only /help states them", async () => {
    expect(pageConfigOf(await page("/login"))).not.toHaveProperty("locks");
  });
});

describe("a deploy with time limits of its own (docs/decisions/055-deploy-time-limits.md)", () => {
  it("gives the pages its time limits in the public configuration", async () => {
    expect(pageConfigOf(await page("/check"))?.timeLimits).toEqual({
      order: { payMinutes: 15 },
      claim: { submitHours: 12, autoApproveHours: 48 },
      session: { idleDays: 7 },
    });
  });

  it("states them on /help and /tos, in both languages", async () => {
    const help = await page("/help");
    expect(help).toContain("15 minutes. An unpaid order closes after that");
    expect(help).toContain("submit your proof within 12 hours (or by the deadline, if sooner)");
    expect(help).toContain("unchecked submissions are approved automatically after 48 hours.");
    expect(help).toContain("Until you sign out, or 7 days after you last used Paydesk on that device.");
    expect(help).not.toContain("72 hours");
    expect(help).not.toContain("30 days after you last used");
    const zh = await page("/help", "zh-CN");
    expect(zh).toContain("15 分钟。超时未支付的订单将自动关闭");
    expect(zh).toContain("并在 12 小时内（如截止时间更早");
    expect(zh).toContain("报酬会转入你的钱包；48 小时内未审核的提交将自动通过。");
    expect(zh).toContain("如果你在该设备上连续 7 天未使用 Paydesk，登录状态也会失效。");
    expect(await page("/tos")).toContain("Submissions you have not checked within 48 hours are approved automatically.");
    expect(await page("/tos", "zh-CN")).toContain("48 小时内未审核的提交将自动通过。");
  });
});

describe("a deploy with task limits of its own (docs/decisions/058-deploy-task-limits.md)", () => {
  it("gives the pages its task limits in the public configuration", async () => {
    expect(pageConfigOf(await page("/task"))?.taskLimits).toEqual({ slots: { max: 50 }, deadline: { minHours: 24, maxDays: 7 } });
  });

  it("states them on /help, in both languages", async () => {
    expect(await page("/help")).toContain("the number of completions (1 to 50) and a deadline between 24 hours and 7 days ahead.");
    expect(await page("/help", "zh-CN")).toContain("需要完成的次数（1 至 50）以及截止时间（从现在起 24 小时到 7 天之间）。");
  });
});

describe("a deploy with text limits of its own (docs/decisions/059-deploy-text-limits.md)", () => {
  it("gives the pages its lengths in the public configuration", async () => {
    expect(pageConfigOf(await page("/transfer"))?.textLimits).toEqual({
      task: { title: 80, description: 2_000 },
      proof: { text: 2_000 },
      transfer: { note: 60 },
      support: { message: 1_000 },
    });
  });

  it("states a note's length on /help, in both languages", async () => {
    expect(await page("/help")).toContain("a note of up to 60 characters travels with the money.");
    expect(await page("/help", "zh-CN")).toContain("你还可以添加最多 60 个字符的备注");
  });

  it("states a message's length on /contact's form, drawn on the server", async () => {
    expect(await page("/contact")).toContain("Up to 1,000 characters. Never send your password.");
    expect(await page("/contact", "zh-CN")).toContain("最多 1,000 个字符。请勿发送密码。");
  });
});
