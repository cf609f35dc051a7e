import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Claim, Task } from "#contract/tasks";
import { balanceOf, expectLedgerWhole, fundWallet, resetDatabase, seedUser, testOrigin } from "../../test/origin-client";
import { runTimeBasedRules } from "../scheduled";

type Step =
  | { kind: "post"; user: number; reward: number; slots: number; hours: number }
  | { kind: "claim"; user: number; task: number }
  | { kind: "submit"; claim: number }
  | { kind: "decide"; claim: number; approve: boolean }
  | { kind: "cancel"; task: number }
  | { kind: "time"; hours: number };

const people = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("post" as const),
    user: fc.nat(people - 1),
    reward: fc.integer({ min: 10, max: 5_000 }),
    slots: fc.integer({ min: 1, max: 4 }),
    hours: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({ kind: fc.constant("claim" as const), user: fc.nat(people - 1), task: fc.nat(5) }),
  fc.record({ kind: fc.constant("submit" as const), claim: fc.nat(5) }),
  fc.record({ kind: fc.constant("decide" as const), claim: fc.nat(5), approve: fc.boolean() }),
  fc.record({ kind: fc.constant("cancel" as const), task: fc.nat(5) }),
  fc.record({ kind: fc.constant("time" as const), hours: fc.integer({ min: 0, max: 80 }) }),
);

describe("tasks never create, destroy or take money from workers", () => {
  it("keeps money whole and workers whole under any sequence of task steps and time", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        await resetDatabase();
        const origin = testOrigin();
        const users = await Promise.all(Array.from({ length: people }, (_, index) => seedUser(`person_${index}`, origin.now())));
        const moneyIn = 20_000 * people;
        for (const user of users) await fundWallet(origin, user, 20_000);
        const tasks: { id: string; poster: number }[] = [];
        const claims: { id: string; worker: number; poster: number }[] = [];
        const earned = users.map(() => 0);
        const key = () => ({ "Idempotency-Key": `step-${crypto.randomUUID()}` });

        for (const next of steps) {
          if (next.kind === "post") {
            const poster = users[next.user];
            if (!poster) continue;
            const posted = await origin.call("/api/tasks", {
              body: {
                title: "T",
                description: "D",
                reward: next.reward,
                slots: next.slots,
                deadline: new Date(origin.now() + next.hours * 3_600_000).toISOString(),
              },
              headers: { ...poster.auth, ...key() },
            });
            expect(posted.status).toBe(201);
            const { task, order } = ((await posted.json()) as { data: { task: Task; order: { id: string } } }).data;
            const paid = await origin.call(`/api/orders/${order.id}/pay`, {
              body: { method: "wallet" },
              headers: { ...poster.auth, ...key() },
            });
            expect([201, 422]).toContain(paid.status);
            tasks.push({ id: task.id, poster: next.user });
          } else if (next.kind === "claim") {
            const task = tasks[next.task];
            const worker = users[next.user];
            if (!task || !worker) continue;
            const answer = await origin.call(`/api/tasks/${task.id}/claims`, { headers: worker.auth });
            expect([201, 409]).toContain(answer.status);
            if (answer.status === 201)
              claims.push({ id: ((await answer.json()) as { data: Claim }).data.id, worker: next.user, poster: task.poster });
          } else if (next.kind === "submit") {
            const claim = claims[next.claim];
            if (!claim) continue;
            const answer = await origin.call(`/api/claims/${claim.id}/submit`, {
              body: { text: "done" },
              headers: users[claim.worker]?.auth ?? {},
            });
            expect([200, 409]).toContain(answer.status);
          } else if (next.kind === "decide") {
            const claim = claims[next.claim];
            if (!claim) continue;
            const answer = next.approve
              ? await origin.call(`/api/claims/${claim.id}/approve`, { headers: users[claim.poster]?.auth ?? {} })
              : await origin.call(`/api/claims/${claim.id}/reject`, { body: { reason: "no" }, headers: users[claim.poster]?.auth ?? {} });
            expect([200, 409]).toContain(answer.status);
          } else if (next.kind === "cancel") {
            const task = tasks[next.task];
            if (!task) continue;
            const answer = await origin.call(`/api/tasks/${task.id}/cancel`, { headers: users[task.poster]?.auth ?? {} });
            expect([200, 409]).toContain(answer.status);
          } else {
            origin.advance(next.hours * 3_600_000);
            await runTimeBasedRules(env.DB, origin.now());
          }

          await expectLedgerWhole();
          const balances = await Promise.all(users.map((user) => balanceOf(user.id)));
          expect(balances.reduce((sum, balance) => sum + balance.available + balance.held, 0)).toBe(moneyIn);
          // What a worker was paid for approved claims never goes back.
          const paid = await env.DB.prepare(
            "SELECT claim.worker_id, sum(claim_capture.amount) AS total FROM claim_capture JOIN claim ON claim.id = claim_capture.claim_id GROUP BY claim.worker_id",
          ).all<{ worker_id: string; total: number }>();
          users.forEach((user, index) => {
            const total = paid.results.find((row) => row.worker_id === user.id)?.total ?? 0;
            expect(total).toBeGreaterThanOrEqual(earned[index] ?? 0);
            earned[index] = total;
          });
        }
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
