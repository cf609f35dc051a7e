import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defaultLimits } from "#contract/money-limits";
import { ApiFailure } from "../api/client";
import { currentMoneyLimits } from "../money-limits";
import { attempt, checked } from "./action-result";

vi.mock("../money-limits", async (actual) => ({
  ...(await actual<typeof import("../money-limits")>()),
  currentMoneyLimits: vi.fn(() => defaultLimits),
}));

const badRequest = async () => (await import("../messages/errors/en")).default.BAD_REQUEST;

describe("a form's own check", () => {
  const schema = z.strictObject({ title: z.string().min(1), reward: z.number().int() });
  const screen = { title: "Give the task a title.", reward: "Enter a reward." };

  it("refuses every field in error at once, the first as the failure's own", async () => {
    const result = await attempt("post", () => checked(schema, { title: "", reward: 1.5 }, screen));
    expect(result).toEqual({
      intent: "post",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "title", message: screen.title, fields: screen },
    });
  });

  it("keeps a refusal of the form as a whole beside its fields, under the key the alert tells", async () => {
    const result = await attempt("post", () => checked(schema, { title: "", reward: 2, extra: true }, screen));
    expect(result).toMatchObject({ ok: false, failure: { fields: { title: screen.title, "": await badRequest() } } });
  });

  it("names the one field alone without a list", async () => {
    const result = await attempt("post", () => checked(schema, { title: "A task", reward: 1.5 }, screen));
    expect(result).toEqual({ intent: "post", ok: false, failure: { code: "BAD_REQUEST", field: "reward", message: screen.reward } });
  });
});

describe("the deploy's money limits in a form's refusals (decision 053)", () => {
  const tight = { ...defaultLimits, transfer: { min: 1, max: 2_000, perDay: 5_000 } };

  it("holds an amount to the deploy's range beside the schema's, naming the field", async () => {
    const schema = z.strictObject({ amount: z.number().int().max(5_000_000) });
    const screen = { amount: "Enter an amount from ¥0.01 to ¥20.00." };
    const range = { amount: tight.transfer };
    expect(await attempt("send", () => checked(schema, { amount: 2_001 }, screen, range))).toEqual({
      intent: "send",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "amount", message: screen.amount },
    });
    expect(await attempt("send", () => checked(schema, { amount: 2_000 }, screen, range))).toEqual({
      intent: "send",
      ok: true,
      data: { amount: 2_000 },
    });
  });

  it("holds a text to the deploy's length, counted as the origin counts it (decision 059)", async () => {
    const schema = z.strictObject({ note: z.string().max(140) });
    const screen = { note: "A note has at most 20 characters and no control characters." };
    const lengths = { note: 20 };
    expect(await attempt("send", () => checked(schema, { note: "👍".repeat(21) }, screen, {}, lengths))).toEqual({
      intent: "send",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "note", message: screen.note },
    });
    // Twenty emoji are forty UTF-16 units but twenty characters; spaces around are trimmed,
    // "e" with a combining accent is one "é" once normalised, and a note that shows nothing
    // (Hangul fillers, which trimming keeps) is stored empty.
    for (const note of ["👍".repeat(20), `  ${"e\u0301".repeat(20)}  `, "\u3164".repeat(25)]) {
      expect(await attempt("send", () => checked(schema, { note }, screen, {}, lengths))).toMatchObject({ ok: true });
    }
  });

  it("names the day's transfer total this deploy allows when the origin refuses one", async () => {
    vi.mocked(currentMoneyLimits).mockReturnValueOnce(tight);
    const result = await attempt("send", () => Promise.reject(new ApiFailure("DAILY_LIMIT_EXCEEDED", "amount")));
    expect(result).toEqual({
      intent: "send",
      ok: false,
      failure: { code: "DAILY_LIMIT_EXCEEDED", field: "amount", message: "This would take you over the daily limit of ¥50.00 sent." },
    });
  });
});
