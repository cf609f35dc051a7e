import { beforeEach, describe, expect, it, vi } from "vitest";
import { formWith } from "../forms/form-data-for-tests";
import { defaultLimits } from "#contract/money-limits";
import { defaultTextLimits } from "#contract/text-limits";
import { sendTransfer } from "../api/transfers";
import { lookUpRecipient } from "../api/users";
import { transferMessages } from "../messages/transfer";
import { currentMoneyLimits } from "../money-limits";
import { currentTextLimits } from "../text-limits";
import { actOnTransferForm } from "./transfer-steps.client";

vi.mock("../api/transfers", () => ({ sendTransfer: vi.fn() }));
vi.mock("../api/users", () => ({ lookUpRecipient: vi.fn() }));
vi.mock("../money-limits", async (actual) => ({ ...(await actual<typeof import("../money-limits")>()), currentMoneyLimits: vi.fn() }));
vi.mock("../text-limits", async (actual) => ({ ...(await actual<typeof import("../text-limits")>()), currentTextLimits: vi.fn() }));
vi.mock("../session/account-session", () => ({ currentToken: () => "tok_0123456789abcdef", refreshUser: vi.fn(async () => {}) }));

const key = "9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f";

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(currentMoneyLimits).mockReturnValue(defaultLimits);
  vi.mocked(currentTextLimits).mockReturnValue({ ...defaultTextLimits, transfer: { note: 60 } });
  vi.mocked(lookUpRecipient).mockResolvedValue({ handle: "bob", displayName: "Bob" } as Awaited<ReturnType<typeof lookUpRecipient>>);
});

// docs/decisions/059-deploy-text-limits.md: the form holds a note to the deploy's length, as the origin does.
describe("the transfer form's note under a deploy's shorter length", () => {
  const transfer = { toHandle: "bob", amount: "1.00", idempotencyKey: key };

  it.each([["review"], ["send"]])(
    "on %s, refuses a note one character over, naming the length, and asks the origin nothing",
    async (intent) => {
      expect(await actOnTransferForm(formWith({ ...transfer, intent, note: "é".repeat(61) }))).toEqual({
        intent,
        ok: false,
        failure: { code: "BAD_REQUEST", field: "note", message: transferMessages.en.noteOutside("60") },
      });
      expect(lookUpRecipient).not.toHaveBeenCalled();
      expect(sendTransfer).not.toHaveBeenCalled();
    },
  );

  it("takes a note at the length, counted in characters as stored", async () => {
    // 60 characters, each two UTF-16 units: the length is counted in code points, as the origin counts it.
    const note = "😀".repeat(60);
    const reviewed = await actOnTransferForm(formWith({ ...transfer, intent: "review", note }));
    expect(reviewed).toMatchObject({ intent: "review", ok: true, data: { draft: { toHandle: "bob", amount: 100, note } } });
    expect(lookUpRecipient).toHaveBeenCalledTimes(1);
  });
});
