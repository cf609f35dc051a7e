import { describe, expect, it } from "vitest";
import { z } from "zod";
import { attempt, checked } from "./action-result";

const badRequest = async () => (await import("../messages/errors/en")).default.BAD_REQUEST;

describe("a form's own check", () => {
  const schema = () => z.strictObject({ title: z.string().min(1), reward: z.number().int() });
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
