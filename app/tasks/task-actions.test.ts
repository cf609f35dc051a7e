import { beforeEach, describe, expect, it, vi } from "vitest";
import { formWith } from "../forms/form-data-for-tests";
import { defaultLimits } from "#contract/money-limits";
import { ApiFailure } from "../api/client";
import { submitProof } from "../api/claims";
import { cancelTask, claimTask, postTask } from "../api/tasks";
import { formMessages } from "../messages/forms";
import { taskMessages } from "../messages/tasks";
import { currentMoneyLimits } from "../money-limits";
import { currentTaskLimits } from "../task-limits";
import { currentTextLimits } from "../text-limits";
import { defaultTextLimits } from "#contract/text-limits";
import { defaultTaskLimits } from "#contract/task-limits";
import { refreshUser } from "../session/account-session";
import { updateStartupState } from "../startup/startup-state";
import { actOnTaskForm, taskIntents } from "./task-actions";

vi.mock("../api/tasks", () => ({ claimTask: vi.fn(), cancelTask: vi.fn(), postTask: vi.fn() }));
vi.mock("../api/claims", () => ({ submitProof: vi.fn() }));
vi.mock("../money-limits", async (actual) => ({ ...(await actual<typeof import("../money-limits")>()), currentMoneyLimits: vi.fn() }));
vi.mock("../task-limits", async (actual) => ({ ...(await actual<typeof import("../task-limits")>()), currentTaskLimits: vi.fn() }));
vi.mock("../text-limits", async (actual) => ({ ...(await actual<typeof import("../text-limits")>()), currentTextLimits: vi.fn() }));
vi.mock("../session/account-session", () => ({ currentToken: () => "tok_0123456789abcdef", refreshUser: vi.fn(async () => {}) }));

const key = "2b6f3c1e-7a0d-4c55-9a51-4f0a3f7d2c11";
const signedInApi = { get: expect.any(Function), post: expect.any(Function) };

function redirectTarget(answer: unknown): string | null {
  return answer instanceof Response ? answer.headers.get("Location") : null;
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(currentMoneyLimits).mockReturnValue(defaultLimits);
  vi.mocked(currentTaskLimits).mockReturnValue(defaultTaskLimits);
  vi.mocked(currentTextLimits).mockReturnValue(defaultTextLimits);
});

describe("the task board's client action", () => {
  it("knows exactly the five intents of its forms", () => {
    expect(Object.keys(taskIntents).sort()).toEqual(["cancel", "claim", "post", "submit", "withdraw"]);
  });

  it.each([["delete"], [""], ["approve"], ["hasOwnProperty"]])("refuses the intent %j and calls nothing", async (intent) => {
    const answer = await actOnTaskForm(formWith({ intent, id: "tsk_1", idempotencyKey: key, title: "A task" }));
    expect(answer).toEqual({
      intent,
      ok: false,
      failure: { code: "BAD_REQUEST", field: "intent", message: formMessages.en.unknownIntent },
    });
    for (const call of [claimTask, cancelTask, postTask, submitProof]) expect(call).not.toHaveBeenCalled();
  });

  it("claims a task, then shows it under My work", async () => {
    vi.mocked(claimTask).mockResolvedValue({} as Awaited<ReturnType<typeof claimTask>>);
    const answer = await actOnTaskForm(formWith({ intent: "claim", id: "tsk_1", idempotencyKey: key }));
    expect(claimTask).toHaveBeenCalledWith(signedInApi, "tsk_1", key);
    expect(redirectTarget(answer)).toBe("/task?tab=mine&claimed=tsk_1");
  });

  it("stays on the board with the origin's refusal when a claim is refused", async () => {
    vi.mocked(claimTask).mockRejectedValue(new ApiFailure("TASK_NOT_CLAIMABLE"));
    const answer = await actOnTaskForm(formWith({ intent: "claim", id: "tsk_1", idempotencyKey: key }));
    expect(answer).toMatchObject({ intent: "claim", ok: false, failure: { code: "TASK_NOT_CLAIMABLE" } });
  });

  it("submits a claim's proof, with its link when one is given", async () => {
    const claim = { id: "clm_1" } as Awaited<ReturnType<typeof submitProof>>;
    vi.mocked(submitProof).mockResolvedValue(claim);
    const answer = await actOnTaskForm(
      formWith({ intent: "submit", id: "clm_1", idempotencyKey: key, text: "Done.", url: " https://example.com/work " }),
    );
    expect(submitProof).toHaveBeenCalledWith(signedInApi, "clm_1", { text: "Done.", url: "https://example.com/work" }, key);
    expect(answer).toEqual({ intent: "submit", ok: true, data: claim });
  });

  it("cancels a task and reads the balance afresh", async () => {
    vi.mocked(cancelTask).mockResolvedValue({} as Awaited<ReturnType<typeof cancelTask>>);
    const answer = await actOnTaskForm(formWith({ intent: "cancel", id: "tsk_1", idempotencyKey: key }));
    expect(cancelTask).toHaveBeenCalledWith(signedInApi, "tsk_1", key);
    expect(refreshUser).toHaveBeenCalledTimes(1);
    expect(answer).toMatchObject({ intent: "cancel", ok: true });
  });

  it("posts a task, then goes to pay its budget", async () => {
    const order = { id: "ord_00000000-0000-4000-8000-000000000001" };
    vi.mocked(postTask).mockResolvedValue({ task: {}, order } as Awaited<ReturnType<typeof postTask>>);
    // The budget's order carries the device's first touch, as a recharge's does.
    updateStartupState({ referrers: { visit: "", firstTouch: "https://search.example/?q=tasks" } });
    const deadline = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    const typed = `${deadline.getFullYear()}-${String(deadline.getMonth() + 1).padStart(2, "0")}-${String(deadline.getDate()).padStart(2, "0")}T12:00`;
    const answer = await actOnTaskForm(
      formWith({
        intent: "post",
        idempotencyKey: key,
        title: " Proofread ",
        description: "Two pages.",
        reward: "1.50",
        slots: "3",
        deadline: typed,
      }),
    );
    expect(postTask).toHaveBeenCalledWith(
      signedInApi,
      // Typed as 12:00 in China Standard Time, whatever the machine's own zone: 04:00 UTC.
      {
        title: "Proofread",
        description: "Two pages.",
        reward: 150,
        slots: 3,
        deadline: `${typed.slice(0, 10)}T04:00:00.000Z`,
        referrer: "https://search.example/?q=tasks",
      },
      key,
    );
    expect(redirectTarget(answer)).toBe(`/pay?order=${order.id}`);
  });

  it("checks a task's fields before sending anything", async () => {
    const answer = await actOnTaskForm(
      formWith({ intent: "post", idempotencyKey: key, title: "", description: "Two pages.", reward: "1.50", slots: "3", deadline: "" }),
    );
    expect(answer).toMatchObject({ intent: "post", ok: false, failure: { code: "BAD_REQUEST", field: "title" } });
    expect(postTask).not.toHaveBeenCalled();
  });

  it("names every field in error at once, the first as the failure's own", async () => {
    const answer = await actOnTaskForm(
      formWith({ intent: "post", idempotencyKey: key, title: "", description: "Two pages.", reward: "abc", slots: "0", deadline: "" }),
    );
    expect(answer).toEqual({
      intent: "post",
      ok: false,
      failure: {
        code: "BAD_REQUEST",
        field: "title",
        message: taskMessages.en.titleOutside("80"),
        fields: {
          title: taskMessages.en.titleOutside("80"),
          reward: taskMessages.en.rewardOutside("¥0.10", "¥1,000.00"),
          slots: taskMessages.en.slotsOutside("1,000"),
          deadline: taskMessages.en.deadlineOutside("1 hour", "30 days"),
        },
      },
    });
    expect(postTask).not.toHaveBeenCalled();
  });

  it("holds a reward to the deploy's tighter range, and says that range", async () => {
    vi.mocked(currentMoneyLimits).mockReturnValue({ ...defaultLimits, taskReward: { min: 100, max: 500 } });
    const deadline = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
    const task = { intent: "post", idempotencyKey: key, title: "A task", description: "Two pages.", slots: "1", deadline };
    const answer = await actOnTaskForm(formWith({ ...task, reward: "5.01" }));
    expect(answer).toEqual({
      intent: "post",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "reward", message: taskMessages.en.rewardOutside("¥1.00", "¥5.00") },
    });
    expect(postTask).not.toHaveBeenCalled();
    vi.mocked(postTask).mockResolvedValue({ order: { id: "ord_1" } } as Awaited<ReturnType<typeof postTask>>);
    expect(redirectTarget(await actOnTaskForm(formWith({ ...task, reward: "5.00" })))).toBe("/pay?order=ord_1");
    expect(postTask).toHaveBeenCalledWith(signedInApi, expect.objectContaining({ reward: 500 }), key);
  });

  it("holds the completions to the deploy's tighter bound, and tells an origin's deadline refusal with the deploy's window", async () => {
    vi.mocked(currentTaskLimits).mockReturnValue({ slots: { max: 50 }, deadline: { minHours: 24, maxDays: 7 } });
    const deadline = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
    const task = { intent: "post", idempotencyKey: key, title: "A task", description: "Two pages.", reward: "1.00", deadline };
    expect(await actOnTaskForm(formWith({ ...task, slots: "51" }))).toEqual({
      intent: "post",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "slots", message: taskMessages.en.slotsOutside("50") },
    });
    expect(postTask).not.toHaveBeenCalled();
    // The origin's clock found the deadline outside: the form says the window it states.
    vi.mocked(postTask).mockRejectedValue(new ApiFailure("DEADLINE_OUT_OF_RANGE", "deadline"));
    expect(await actOnTaskForm(formWith({ ...task, slots: "50" }))).toMatchObject({
      ok: false,
      failure: { code: "DEADLINE_OUT_OF_RANGE", field: "deadline", message: "Choose a deadline between 24 hours and 7 days from now." },
    });
  });

  it("holds a task's title and a proof to the deploy's lengths before sending, and says them (decision 059)", async () => {
    vi.mocked(currentTextLimits).mockReturnValue({ ...defaultTextLimits, task: { title: 20, description: 200 }, proof: { text: 200 } });
    const deadline = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
    const task = { intent: "post", idempotencyKey: key, description: "Two pages.", reward: "1.00", slots: "1", deadline };
    expect(await actOnTaskForm(formWith({ ...task, title: "x".repeat(21) }))).toEqual({
      intent: "post",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "title", message: taskMessages.en.titleOutside("20") },
    });
    expect(postTask).not.toHaveBeenCalled();
    const proof = await actOnTaskForm(formWith({ intent: "submit", idempotencyKey: key, id: "clm_1", text: "x".repeat(201) }));
    expect(proof).toEqual({
      intent: "submit",
      ok: false,
      failure: { code: "BAD_REQUEST", field: "text", message: taskMessages.en.proofOutside("200") },
    });
    expect(submitProof).not.toHaveBeenCalled();
  });
});
