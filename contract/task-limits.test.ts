import { describe, expect, it } from "vitest";
import { DeploySettingError } from "./deploy-setting";
import { deadlineOutside, defaultTaskLimits, deployTaskLimits } from "./task-limits";

describe("deployTaskLimits: a deploy's TASK_LIMITS setting", () => {
  it("is the defaults when absent, blank or naming only them", () => {
    expect(deployTaskLimits(undefined)).toBe(defaultTaskLimits);
    expect(deployTaskLimits(" ")).toBe(defaultTaskLimits);
    expect(deployTaskLimits('{"slots":{"max":1000},"deadline":{"minHours":1}}')).toBe(defaultTaskLimits);
  });

  it("tightens only the figures it names", () => {
    expect(deployTaskLimits('{"slots":{"max":50},"deadline":{"minHours":24,"maxDays":7}}')).toEqual({
      slots: { max: 50 },
      deadline: { minHours: 24, maxDays: 7 },
    });
    expect(deployTaskLimits('{"deadline":{"maxDays":1}}')).toEqual({ slots: { max: 1_000 }, deadline: { minHours: 1, maxDays: 1 } });
  });

  it.each([
    ["not JSON", "slots=5", "TASK_LIMITS must be a JSON object"],
    ["an unknown part", '{"reward":{"max":5}}', "TASK_LIMITS.reward is not a limit; TASK_LIMITS has slots, deadline"],
    ["an unknown figure", '{"slots":{"min":2}}', "TASK_LIMITS.slots.min is not a limit; slots has max"],
    ["a fraction", '{"slots":{"max":2.5}}', "TASK_LIMITS.slots.max must be a positive whole number of completions"],
    ["no completions at all", '{"slots":{"max":0}}', "TASK_LIMITS.slots.max must be a positive whole number"],
    ["more completions", '{"slots":{"max":1001}}', "TASK_LIMITS.slots.max may only tighten the product's 1000, not loosen it to 1001"],
    ["a deadline further away", '{"deadline":{"maxDays":31}}', "TASK_LIMITS.deadline.maxDays may only tighten the product's 30"],
    ["a deadline sooner than an hour", '{"deadline":{"minHours":0}}', "TASK_LIMITS.deadline.minHours must be a positive whole number"],
    [
      "a window with no deadline in it",
      '{"deadline":{"minHours":48,"maxDays":2}}',
      "TASK_LIMITS.deadline.minHours (48) leaves no deadline to choose: it must be below maxDays (2) in hours",
    ],
  ])("refuses %s, naming the figure", (_, setting, words) => {
    expect(() => deployTaskLimits(setting)).toThrow(DeploySettingError);
    expect(() => deployTaskLimits(setting)).toThrow(words);
  });

  it("gives limits no request can change for the next, the same for the same setting", () => {
    const limits = deployTaskLimits('{"slots":{"max":10}}');
    expect(Object.isFrozen(limits) && Object.isFrozen(limits.slots) && Object.isFrozen(defaultTaskLimits.deadline)).toBe(true);
    expect(deployTaskLimits('{"slots":{"max":10}}')).toBe(limits);
  });
});

describe("deadlineOutside", () => {
  const now = Date.parse("2026-11-27T00:00:00Z");
  const hour = 3_600_000;
  it("holds a deadline to the window, both ends included", () => {
    const window = { minHours: 24, maxDays: 7 };
    expect(deadlineOutside(now + 24 * hour - 1, now, window)).toBe(true);
    expect(deadlineOutside(now + 24 * hour, now, window)).toBe(false);
    expect(deadlineOutside(now + 7 * 24 * hour, now, window)).toBe(false);
    expect(deadlineOutside(now + 7 * 24 * hour + 1, now, window)).toBe(true);
  });
});
