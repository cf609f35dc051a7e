import { beforeEach, describe, expect, it, vi } from "vitest";
import { formWith } from "../forms/form-data-for-tests";
import { defaultTextLimits } from "#contract/text-limits";
import { openTicket, replyToTicket, sendContactMessage } from "../api/support";
import { ticketFieldMessages } from "../messages/ticket-fields";
import { currentTextLimits } from "../text-limits";
import { actOnContactForm } from "./contact-actions.client";
import { actOnSupportForm } from "./support-screen.client";

vi.mock("../api/support", () => ({ openTicket: vi.fn(), replyToTicket: vi.fn(), closeTicket: vi.fn(), sendContactMessage: vi.fn() }));
vi.mock("../text-limits", async (actual) => ({ ...(await actual<typeof import("../text-limits")>()), currentTextLimits: vi.fn() }));
vi.mock("../session/account-session", () => ({ currentToken: () => "tok_0123456789abcdef", refreshUser: vi.fn(async () => {}) }));

const key = "5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c";

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(currentTextLimits).mockReturnValue({ ...defaultTextLimits, support: { message: 500 } });
  vi.mocked(openTicket).mockResolvedValue({} as Awaited<ReturnType<typeof openTicket>>);
  vi.mocked(replyToTicket).mockResolvedValue({} as Awaited<ReturnType<typeof replyToTicket>>);
  vi.mocked(sendContactMessage).mockResolvedValue({ id: "tkt_1" } as Awaited<ReturnType<typeof sendContactMessage>>);
});

const over = "x".repeat(501);
const atTheLength = "x".repeat(500);
const refusal = (intent: string) => ({
  intent,
  ok: false,
  failure: { code: "BAD_REQUEST", field: "message", message: ticketFieldMessages.en.messageOutside("500") },
});

// docs/decisions/059-deploy-text-limits.md: each form a person writes to support in holds a
// message to the deploy's length before sending, as the origin does at each door.
describe("a message to support under a deploy's shorter length", () => {
  const ticket = { intent: "open", idempotencyKey: key, category: "payment", subject: "A payment" };
  const contact = { intent: "contact", idempotencyKey: key, email: "someone@example.com", category: "other", subject: "Hello" };

  it("opening a ticket: refused one character over, sent at the length", async () => {
    expect(await actOnSupportForm(formWith({ ...ticket, message: over }))).toEqual(refusal("open"));
    expect(openTicket).not.toHaveBeenCalled();
    expect(await actOnSupportForm(formWith({ ...ticket, message: atTheLength }))).toMatchObject({ intent: "open", ok: true });
    expect(openTicket).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ message: atTheLength }), key);
  });

  it("replying: refused one character over, sent at the length", async () => {
    const reply = { intent: "reply", idempotencyKey: key, id: "tkt_1" };
    expect(await actOnSupportForm(formWith({ ...reply, message: over }))).toEqual(refusal("reply"));
    expect(replyToTicket).not.toHaveBeenCalled();
    expect(await actOnSupportForm(formWith({ ...reply, message: atTheLength }))).toMatchObject({ intent: "reply", ok: true });
    expect(replyToTicket).toHaveBeenCalledWith(expect.anything(), "tkt_1", { message: atTheLength }, key);
  });

  it("the contact form: refused one character over, sent at the length", async () => {
    expect(await actOnContactForm(formWith({ ...contact, message: over }))).toEqual(refusal("contact"));
    expect(sendContactMessage).not.toHaveBeenCalled();
    expect(await actOnContactForm(formWith({ ...contact, message: atTheLength }))).toMatchObject({ intent: "contact", ok: true });
    expect(sendContactMessage).toHaveBeenCalledWith(expect.objectContaining({ message: atTheLength }), key);
  });
});
