import { describe, expect, it, vi } from "vitest";
import { formWith } from "./form-data-for-tests";
import { formMessages } from "../messages/forms";
import { dispatchIntent, unknownIntent } from "./intent-dispatch";

describe("the intent dispatch of client actions", () => {
  it("hands the form to the handler of its intent, and to no other", async () => {
    const approve = vi.fn(async () => "approved");
    const reject = vi.fn(async () => "rejected");
    const form = formWith({ intent: "reject", id: "clm_1" });
    expect(await dispatchIntent(form, { approve, reject })).toBe("rejected");
    expect(reject).toHaveBeenCalledWith(form);
    expect(approve).not.toHaveBeenCalled();
  });

  it.each([["delete"], [""], ["constructor"], ["toString"], ["__proto__"]])(
    "refuses the intent %j with the catalogue's message",
    async (intent) => {
      const handler = vi.fn(async () => "done");
      expect(await dispatchIntent(formWith({ intent }), { post: handler })).toEqual({
        intent,
        ok: false,
        failure: { code: "BAD_REQUEST", field: "intent", message: formMessages.en.unknownIntent },
      });
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it("refuses a form without an intent field", async () => {
    const handler = vi.fn(async () => "done");
    expect(await dispatchIntent(new FormData(), { post: handler })).toMatchObject({ ok: false, failure: { code: "BAD_REQUEST" } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("says so in the page's language", () => {
    expect(unknownIntent("x", "zh-CN")).toMatchObject({ ok: false, failure: { message: formMessages["zh-CN"].unknownIntent } });
    expect(formMessages["zh-CN"].unknownIntent).not.toBe(formMessages.en.unknownIntent);
    expect(formMessages["zh-CN"].unknownIntent).not.toBe("");
  });
});
