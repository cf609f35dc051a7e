import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { balanceOf, expectLedgerWhole, issueCodes, resetDatabase, seedUser, testOrigin } from "../../test/origin-client";

type Operation =
  | { kind: "redeem"; user: number; value: number }
  | { kind: "reuse"; user: number }
  | { kind: "transfer"; from: number; to: number; amount: number }
  | { kind: "time"; ms: number };

const users = 3;
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant("redeem" as const), user: fc.nat(users - 1), value: fc.integer({ min: 1, max: 50_000 }) }),
  fc.record({ kind: fc.constant("reuse" as const), user: fc.nat(users - 1) }),
  fc.record({
    kind: fc.constant("transfer" as const),
    from: fc.nat(users - 1),
    to: fc.nat(users - 1),
    amount: fc.integer({ min: 1, max: 60_000 }),
  }),
  fc.record({ kind: fc.constant("time" as const), ms: fc.integer({ min: 0, max: 6 * 60 * 60 * 1000 }) }),
);

describe("money is conserved under any sequence of operations", () => {
  it("matches a simple model of the wallets, with the ledger whole after every step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        await resetDatabase();
        const origin = testOrigin();
        const people = await Promise.all(Array.from({ length: users }, (_, index) => seedUser(`user_${index}`, origin.now())));
        const model = people.map(() => 0);
        const usedCodes: string[] = [];

        for (const step of operations) {
          if (step.kind === "time") {
            origin.advance(step.ms);
          } else if (step.kind === "redeem" || step.kind === "reuse") {
            const person = people[step.user];
            if (!person) continue;
            const code = step.kind === "redeem" ? (await issueCodes(origin, step.value))[0] : usedCodes.at(-1);
            if (!code) continue;
            const answer = await origin.call("/api/codes/redeem", {
              body: { code },
              headers: { ...person.auth, "Idempotency-Key": `op-${crypto.randomUUID()}` },
            });
            if (step.kind === "redeem") {
              expect(answer.status).toBe(201);
              model[step.user] = (model[step.user] ?? 0) + step.value;
              usedCodes.push(code);
            } else {
              expect(answer.status).toBe(409);
            }
          } else {
            const sender = people[step.from];
            const recipient = people[step.to];
            if (!sender || !recipient) continue;
            const answer = await origin.call("/api/transfers", {
              body: { toHandle: `user_${step.to}`, amount: step.amount },
              headers: { ...sender.auth, "Idempotency-Key": `op-${crypto.randomUUID()}` },
            });
            const covered = (model[step.from] ?? 0) >= step.amount;
            const expected = step.from === step.to ? 422 : covered ? 201 : 422;
            expect(answer.status).toBe(expected);
            if (expected === 201) {
              model[step.from] = (model[step.from] ?? 0) - step.amount;
              model[step.to] = (model[step.to] ?? 0) + step.amount;
            }
          }
          await expectLedgerWhole();
        }
        const balances = await Promise.all(people.map((person) => balanceOf(person.id)));
        expect(balances.map((balance) => balance.available)).toEqual(model);
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
