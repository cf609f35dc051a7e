import { describe, expect, it } from "vitest";
import { DeploySettingError } from "./deploy-setting";
import { defaultTextLimits, deployTextLimits, longerThan } from "./text-limits";

describe("deployTextLimits: a deploy's TEXT_LIMITS setting", () => {
  it("is the defaults when absent, blank or naming only them", () => {
    expect(deployTextLimits(undefined)).toBe(defaultTextLimits);
    expect(deployTextLimits("")).toBe(defaultTextLimits);
    expect(deployTextLimits('{"transfer":{"note":140}}')).toBe(defaultTextLimits);
  });

  it("shortens only the lengths it names, down to the shortest each may be", () => {
    expect(deployTextLimits('{"task":{"description":200},"transfer":{"note":20},"support":{"message":500}}')).toEqual({
      task: { title: 80, description: 200 },
      proof: { text: 2_000 },
      transfer: { note: 20 },
      support: { message: 500 },
    });
  });

  it.each([
    ["not JSON", "note=5", "TEXT_LIMITS must be a JSON object"],
    ["an unknown part", '{"ticket":{"subject":50}}', "TEXT_LIMITS.ticket is not a limit; TEXT_LIMITS has task, proof, transfer, support"],
    ["an unknown figure", '{"task":{"reason":50}}', "TEXT_LIMITS.task.reason is not a limit; task has title, description"],
    ["a fraction", '{"proof":{"text":300.5}}', "TEXT_LIMITS.proof.text must be a positive whole number of characters"],
    ["a longer note", '{"transfer":{"note":141}}', "TEXT_LIMITS.transfer.note may only shorten the product's 140, not lengthen it to 141"],
    ["a title too short to name a task", '{"task":{"title":19}}', "TEXT_LIMITS.task.title (19) is below 20"],
    ["a message too short to ask anything", '{"support":{"message":499}}', "TEXT_LIMITS.support.message (499) is below 500"],
  ])("refuses %s, naming the figure", (_, setting, words) => {
    expect(() => deployTextLimits(setting)).toThrow(DeploySettingError);
    expect(() => deployTextLimits(setting)).toThrow(words);
  });

  it("gives limits no request can change for the next, the same for the same setting", () => {
    const limits = deployTextLimits('{"proof":{"text":500}}');
    expect(Object.isFrozen(limits) && Object.isFrozen(limits.proof) && Object.isFrozen(defaultTextLimits.support)).toBe(true);
    expect(deployTextLimits('{"proof":{"text":500}}')).toBe(limits);
  });
});

describe("longerThan", () => {
  it("counts code points, as the schema does: an emoji is one character, not two", () => {
    expect(longerThan("👍".repeat(20), 20)).toBe(false);
    expect(longerThan("👍".repeat(21), 20)).toBe(true);
  });
});
