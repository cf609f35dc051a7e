import { describe, expect, it } from "vitest";
import { createRechargeOrderBodySchema } from "./orders";
import { DeploySettingError } from "./deploy-setting";
import { defaultLimits, deployLimits, outsideRange } from "./money-limits";
import { postTaskBodySchema } from "./tasks";
import { transferBodySchema } from "./transfers";

describe("deployLimits: a deploy's MONEY_LIMITS setting", () => {
  it("is the defaults when absent or blank", () => {
    expect(deployLimits(undefined)).toEqual(defaultLimits);
    expect(deployLimits("  ")).toEqual(defaultLimits);
    expect(deployLimits("{}")).toBe(defaultLimits);
    expect(deployLimits('{"transfer":{"max":5000000}}')).toBe(defaultLimits);
  });

  it("tightens only the figures it names", () => {
    expect(deployLimits('{"transfer":{"max":1000000,"perDay":2000000},"recharge":{"min":1000}}')).toEqual({
      recharge: { min: 1000, max: 500_000 },
      transfer: { min: 1, max: 1_000_000, perDay: 2_000_000 },
      taskReward: defaultLimits.taskReward,
    });
    // A range may close to one amount.
    expect(deployLimits('{"taskReward":{"min":500,"max":500}}').taskReward).toEqual({ min: 500, max: 500 });
  });

  it.each([
    ["not JSON", "{transfer:1}", "JSON object"],
    ["an array", "[]", "JSON object"],
    ["an unknown part", '{"withdraw":{"max":1}}', "MONEY_LIMITS.withdraw is not a limit"],
    ["an unknown figure", '{"transfer":{"perWeek":1}}', "MONEY_LIMITS.transfer.perWeek is not a limit"],
    ["a part that is not an object", '{"transfer":5}', "MONEY_LIMITS.transfer must be an object"],
    ["a fraction of a fen", '{"transfer":{"max":100.5}}', "whole number of fen"],
    ["a figure as text", '{"transfer":{"max":"100"}}', "whole number of fen"],
    ["zero", '{"recharge":{"max":0}}', "whole number of fen"],
    ["a maximum past the product's", '{"transfer":{"max":5000001}}', "may only tighten the product's 5000000"],
    ["a daily total past the product's", '{"transfer":{"perDay":10000001}}', "may only tighten the product's 10000000"],
    ["a minimum below the product's", '{"taskReward":{"min":9}}', "may only tighten the product's 10"],
    ["a minimum past the maximum", '{"recharge":{"min":600000}}', "MONEY_LIMITS.recharge.max (500000) is below recharge.min (600000)"],
    ["a daily total below one transfer's minimum", '{"transfer":{"min":500,"perDay":100}}', "perDay (100) is below transfer.min (500)"],
    ["a daily total below one transfer's maximum", '{"transfer":{"max":2000,"perDay":1000}}', "perDay (1000) is below transfer.max (2000)"],
    ["a lower daily total alone, the maximum left above it", '{"transfer":{"perDay":2000000}}', "set max to at most perDay too"],
    ["a part every object inherits", '{"toString":{"max":1}}', "MONEY_LIMITS.toString is not a limit"],
    ["a figure every object inherits", '{"transfer":{"constructor":5}}', "MONEY_LIMITS.transfer.constructor is not a limit"],
  ])("refuses %s, naming the figure", (_, setting, words) => {
    expect(() => deployLimits(setting)).toThrow(DeploySettingError);
    expect(() => deployLimits(setting)).toThrow(words);
  });

  it("gives limits no request can change for the next", () => {
    const limits = deployLimits('{"transfer":{"max":200,"perDay":200}}');
    expect(Object.isFrozen(limits) && Object.isFrozen(limits.transfer) && Object.isFrozen(defaultLimits.taskReward)).toBe(true);
  });

  it("gives the same answer for the same setting, and reads a changed one afresh", () => {
    const first = deployLimits('{"transfer":{"max":200}}');
    expect(deployLimits('{"transfer":{"max":200}}')).toBe(first);
    expect(deployLimits('{"transfer":{"max":300}}').transfer.max).toBe(300);
  });
});

describe("the contract's schemas hold the defaults", () => {
  it("accepts each default's bounds and refuses one fen past them", () => {
    const transfer = (amount: number) => transferBodySchema.safeParse({ toHandle: "bob_1", amount }).success;
    expect([transfer(defaultLimits.transfer.min), transfer(defaultLimits.transfer.max)]).toEqual([true, true]);
    expect([transfer(defaultLimits.transfer.min - 1), transfer(defaultLimits.transfer.max + 1)]).toEqual([false, false]);
    const recharge = (amount: number) => createRechargeOrderBodySchema.safeParse({ amount }).success;
    expect([recharge(defaultLimits.recharge.min - 1), recharge(defaultLimits.recharge.min)]).toEqual([false, true]);
    expect([recharge(defaultLimits.recharge.max), recharge(defaultLimits.recharge.max + 1)]).toEqual([true, false]);
    const reward = (amount: number) => postTaskBodySchema.shape.reward.safeParse(amount).success;
    expect([reward(defaultLimits.taskReward.min - 1), reward(defaultLimits.taskReward.min)]).toEqual([false, true]);
    expect([reward(defaultLimits.taskReward.max), reward(defaultLimits.taskReward.max + 1)]).toEqual([true, false]);
  });
});

describe("outsideRange: a deploy's range, worded as the schema words the contract's", () => {
  it("names the bound an amount passes, and nothing inside", () => {
    const range = { min: 500, max: 200_000 };
    expect(outsideRange(499, range)).toBe("The amount must be at least 5.00.");
    expect(outsideRange(200_001, range)).toBe("The amount must be at most 2000.00.");
    expect(outsideRange(500, range)).toBeNull();
    expect(outsideRange(200_000, range)).toBeNull();
    const schemaWords = transferBodySchema.safeParse({ toHandle: "bob_1", amount: 5_000_001 }).error?.issues[0]?.message;
    expect(outsideRange(5_000_001, defaultLimits.transfer)).toBe(schemaWords);
  });
});
