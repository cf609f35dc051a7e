import { describe, expect, it } from "vitest";
import { DeploySettingError } from "./deploy-setting";
import { defaultLocks, deployLocks } from "./lock-limits";

describe("deployLocks: a deploy's LOCKS setting", () => {
  it("is the defaults when absent, blank or naming only them", () => {
    expect(deployLocks(undefined)).toBe(defaultLocks);
    expect(deployLocks(" ")).toBe(defaultLocks);
    expect(deployLocks("{}")).toBe(defaultLocks);
    expect(deployLocks('{"signIn":{"failures":10},"redeem":{"lockMinutes":10}}')).toBe(defaultLocks);
  });

  it("tightens only the figures it names", () => {
    expect(deployLocks('{"signIn":{"failures":5,"lockMinutes":60},"redeem":{"windowMinutes":1440}}')).toEqual({
      signIn: { failures: 5, windowMinutes: 15, lockMinutes: 60 },
      redeem: { failures: 5, windowMinutes: 1440, lockMinutes: 10 },
    });
    expect(deployLocks('{"redeem":{"failures":3}}').redeem.failures).toBe(3);
  });

  it.each([
    ["not JSON", "{signIn:1}", "LOCKS must be a JSON object"],
    ["an unknown part", '{"transfer":{"failures":3}}', "LOCKS.transfer is not a limit; LOCKS has signIn, redeem"],
    [
      "an unknown figure",
      '{"signIn":{"attempts":3}}',
      "LOCKS.signIn.attempts is not a limit; signIn has failures, windowMinutes, lockMinutes",
    ],
    ["a figure every object inherits", '{"redeem":{"constructor":3}}', "LOCKS.redeem.constructor is not a limit"],
    ["a part that is not an object", '{"redeem":3}', "LOCKS.redeem must be an object"],
    ["a fraction", '{"signIn":{"lockMinutes":15.5}}', "whole number of failures or minutes"],
    [
      "more failures than the product's",
      '{"signIn":{"failures":11}}',
      "LOCKS.signIn.failures may only tighten the product's 10, not loosen it to 11",
    ],
    ["fewer than three failures", '{"redeem":{"failures":2}}', "LOCKS.redeem.failures (2) is below 3"],
    [
      "a shorter window",
      '{"redeem":{"windowMinutes":5}}',
      "LOCKS.redeem.windowMinutes may only tighten the product's 10, not loosen it to 5",
    ],
    ["a shorter lock", '{"signIn":{"lockMinutes":14}}', "LOCKS.signIn.lockMinutes may only tighten the product's 15"],
    ["a window past a day", '{"signIn":{"windowMinutes":1441}}', "LOCKS.signIn.windowMinutes (1441) is past 1440, a day"],
    ["a lock past a day", '{"redeem":{"lockMinutes":10080}}', "LOCKS.redeem.lockMinutes (10080) is past 1440"],
  ])("refuses %s, naming the figure", (_, setting, words) => {
    expect(() => deployLocks(setting)).toThrow(DeploySettingError);
    expect(() => deployLocks(setting)).toThrow(words);
  });

  it("gives locks no request can change for the next, the same for the same setting", () => {
    const locks = deployLocks('{"signIn":{"failures":4}}');
    expect(Object.isFrozen(locks) && Object.isFrozen(locks.signIn) && Object.isFrozen(defaultLocks.redeem)).toBe(true);
    expect(deployLocks('{"signIn":{"failures":4}}')).toBe(locks);
    expect(deployLocks('{"signIn":{"failures":3}}').signIn.failures).toBe(3);
  });
});
