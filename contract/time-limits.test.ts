import { describe, expect, it } from "vitest";
import { DeploySettingError } from "./deploy-setting";
import { defaultTimeLimits, deployTimeLimits } from "./time-limits";

describe("deployTimeLimits: a deploy's TIME_LIMITS setting", () => {
  it("is the defaults when absent, blank or naming only them", () => {
    expect(deployTimeLimits(undefined)).toBe(defaultTimeLimits);
    expect(deployTimeLimits("")).toBe(defaultTimeLimits);
    expect(deployTimeLimits("{}")).toBe(defaultTimeLimits);
    expect(deployTimeLimits('{"order":{"payMinutes":30},"claim":{"autoApproveHours":72}}')).toBe(defaultTimeLimits);
  });

  it("shortens only the figures it names, down to the shortest each may be", () => {
    expect(deployTimeLimits('{"order":{"payMinutes":5},"claim":{"autoApproveHours":24}}')).toEqual({
      order: { payMinutes: 5 },
      claim: { submitHours: 24, autoApproveHours: 24 },
      session: { idleDays: 30 },
    });
    expect(deployTimeLimits('{"claim":{"submitHours":1}}').claim.submitHours).toBe(1);
    expect(deployTimeLimits('{"session":{"idleDays":1}}')).toEqual({ ...defaultTimeLimits, session: { idleDays: 1 } });
  });

  it.each([
    ["not JSON", "order=5", "TIME_LIMITS must be a JSON object"],
    ["an unknown part", '{"task":{"slots":3}}', "TIME_LIMITS.task is not a limit; TIME_LIMITS has order, claim, session"],
    [
      "an unknown figure",
      '{"claim":{"reviewHours":3}}',
      "TIME_LIMITS.claim.reviewHours is not a limit; claim has submitHours, autoApproveHours",
    ],
    ["a figure every object inherits", '{"order":{"valueOf":3}}', "TIME_LIMITS.order.valueOf is not a limit"],
    ["a fraction", '{"claim":{"submitHours":1.5}}', "whole number of minutes, hours or days"],
    [
      "a longer order",
      '{"order":{"payMinutes":31}}',
      "TIME_LIMITS.order.payMinutes may only shorten the product's 30, not lengthen it to 31",
    ],
    ["a longer claim", '{"claim":{"submitHours":48}}', "TIME_LIMITS.claim.submitHours may only shorten the product's 24"],
    ["an order too short to pay", '{"order":{"payMinutes":4}}', "TIME_LIMITS.order.payMinutes (4) is below 5"],
    ["a check too short to make", '{"claim":{"autoApproveHours":12}}', "TIME_LIMITS.claim.autoApproveHours (12) is below 24"],
    [
      "a longer session",
      '{"session":{"idleDays":31}}',
      "TIME_LIMITS.session.idleDays may only shorten the product's 30, not lengthen it to 31",
    ],
    ["a session that never outlasts its use", '{"session":{"idleDays":0}}', "TIME_LIMITS.session.idleDays must be a positive whole number"],
    ["a session in hours", '{"session":{"idleHours":12}}', "TIME_LIMITS.session.idleHours is not a limit; session has idleDays"],
  ])("refuses %s, naming the figure", (_, setting, words) => {
    expect(() => deployTimeLimits(setting)).toThrow(DeploySettingError);
    expect(() => deployTimeLimits(setting)).toThrow(words);
  });

  it("gives time limits no request can change for the next, the same for the same setting", () => {
    const times = deployTimeLimits('{"order":{"payMinutes":10}}');
    expect(Object.isFrozen(times) && Object.isFrozen(times.order) && Object.isFrozen(defaultTimeLimits.claim)).toBe(true);
    expect(Object.isFrozen(times.session) && Object.isFrozen(defaultTimeLimits.session)).toBe(true);
    expect(deployTimeLimits('{"order":{"payMinutes":10}}')).toBe(times);
    expect(deployTimeLimits('{"order":{"payMinutes":15}}').order.payMinutes).toBe(15);
  });
});
