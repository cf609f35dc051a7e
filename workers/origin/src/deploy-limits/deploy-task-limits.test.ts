import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultTaskLimits } from "#contract/task-limits";
import { resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";

/** A deploy whose tasks ask for at most 50 completions, due between a day and a week ahead (docs/decisions/058-deploy-task-limits.md). */
const tight = JSON.stringify({ slots: { max: 50 }, deadline: { minHours: 24, maxDays: 7 } });
const hour = 3_600_000;

let origin: TestOrigin;
let poster: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  poster = await seedUser("poster", origin.now());
});

const under = (setting: string) => ({ ...env, TASK_LIMITS: setting });

function post(overrides: Record<string, unknown>, { setting = tight, key = `task-${crypto.randomUUID()}` } = {}) {
  return origin.call("/api/tasks", {
    body: {
      title: "Translate a menu",
      description: "Translate our 20-line lunch menu from Chinese to English.",
      reward: 100,
      slots: 3,
      deadline: new Date(origin.now() + 2 * 24 * hour).toISOString(),
      ...overrides,
    },
    headers: { ...poster.auth, "Idempotency-Key": key },
    env: under(setting),
  });
}

const taskCount = () => env.DB.prepare("SELECT COUNT(*) AS count FROM task").first<number>("count");

describe("GET /api/task-limits", () => {
  it("answers the product's where the deploy sets none, and the deploy's own", async () => {
    const product = await origin.call("/api/task-limits", { method: "GET" });
    expect(product.status).toBe(200);
    expect(await product.json()).toEqual({ code: "SUCCESS", data: defaultTaskLimits });
    const deploy = await origin.call("/api/task-limits", { method: "GET", env: under(tight) });
    expect(await deploy.json()).toEqual({ code: "SUCCESS", data: { slots: { max: 50 }, deadline: { minHours: 24, maxDays: 7 } } });
  });
});

describe("a deploy's tighter task limits", () => {
  it("refuses more completions than the deploy allows with the schema's 400, naming them, and posts nothing", async () => {
    const over = await post({ slots: 51 });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field: "slots", message: "At most 50 completions." });
    expect(await taskCount()).toBe(0);
    expect((await post({ slots: 50 })).status).toBe(201);
  });

  it.each([
    ["sooner than the deploy's earliest", 24 * hour - 1],
    ["further than the deploy's latest", 7 * 24 * hour + 1],
  ])("refuses a deadline %s, naming the deploy's window", async (_, ahead) => {
    const refused = await post({ deadline: new Date(origin.now() + ahead).toISOString() });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      code: "DEADLINE_OUT_OF_RANGE",
      field: "deadline",
      message: "Choose a deadline between 24 hours and 7 days from now.",
    });
    expect(await taskCount()).toBe(0);
  });

  it("posts a task at either end of the deploy's window", async () => {
    expect((await post({ deadline: new Date(origin.now() + 24 * hour).toISOString() })).status).toBe(201);
    expect((await post({ deadline: new Date(origin.now() + 7 * 24 * hour).toISOString() })).status).toBe(201);
  });

  it("replays a task answered before the limits tightened, rather than refusing its retry", async () => {
    const first = await post({ slots: 200 }, { setting: "", key: "before-the-change" });
    expect(first.status).toBe(201);
    const retry = await post({ slots: 200 }, { key: "before-the-change" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await taskCount()).toBe(1);
  });

  it("keeps no refusal under its key: a retry after the setting loosens posts the task", async () => {
    const tooMany = await post({ slots: 200 }, { key: "too-many" });
    expect(tooMany.status).toBe(400);
    expect((await post({ slots: 200 }, { setting: "", key: "too-many" })).status).toBe(201);
    const farOff = { deadline: new Date(origin.now() + 20 * 24 * hour).toISOString() };
    expect((await post(farOff, { key: "far-off-deadline" })).status).toBe(422);
    expect((await post(farOff, { setting: "", key: "far-off-deadline" })).status).toBe(201);
    expect(await taskCount()).toBe(2);
  });

  it("is the product's at the defaults: 1,000 completions, a deadline up to 30 days ahead", async () => {
    expect((await post({ slots: 1_000, deadline: new Date(origin.now() + 30 * 24 * hour).toISOString() }, { setting: "" })).status).toBe(
      201,
    );
    const refused = await post({ deadline: new Date(origin.now() + 30 * 24 * hour + 1).toISOString() }, { setting: "" });
    expect(await refused.json()).toMatchObject({ message: "Choose a deadline between 1 hour and 30 days from now." });
  });
});

describe("a TASK_LIMITS setting the origin cannot read", () => {
  it("posts no task (500), and publishes no figures", async () => {
    const unreadable = '{"slots":{"max":5000}}';
    expect((await post({}, { setting: unreadable })).status).toBe(500);
    expect(await taskCount()).toBe(0);
    expect((await origin.call("/api/task-limits", { method: "GET", env: under(unreadable) })).status).toBe(500);
  });
});
