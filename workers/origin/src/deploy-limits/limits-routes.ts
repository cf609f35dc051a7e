import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { locksSchema } from "#contract/lock-limits-answer";
import { moneyLimitsSchema } from "#contract/money-limits-answer";
import { taskLimitsSchema } from "#contract/task-limits-answer";
import { textLimitsSchema } from "#contract/text-limits-answer";
import { timeLimitsSchema } from "#contract/time-limits-answer";
import { jsonContent, successEnvelope } from "#contract/openapi";
import type { z } from "zod";
import type { OriginEnv } from "../origin-env";
import { limitsOf, locksOf, taskLimitsOf, textLimitsOf, timeLimitsOf } from "./deploy-limits";

/** A deploy's setting, published to anyone at `path`: what it is, and the figures in force. */
const published = <S extends z.ZodType>({
  path,
  summary,
  description,
  schema,
  inForce,
}: {
  path: string;
  summary: string;
  description: string;
  schema: S;
  inForce: string;
}) => createRoute({ method: "get", path, summary, description, responses: { 200: jsonContent(successEnvelope(schema), inForce) } });

const limits = published({
  path: "/limits",
  summary: "This deploy's money limits, in fen",
  description:
    "The contract's schemas state the product's limits; a deploy may tighten them (docs/decisions/053-deploy-limits.md), and then refuses what passes its own with 400 naming the field, or 422 DAILY_LIMIT_EXCEEDED. No sign-in needed: they are the same for everyone.",
  schema: moneyLimitsSchema,
  inForce: "The limits in force",
});

const locks = published({
  path: "/locks",
  summary: "This deploy's locks against guessing: sign-in and redeeming prepaid codes",
  description:
    "The product locks a handle's sign-in after 10 failed passwords or recovery codes within 15 minutes, for 15 minutes, and a person's redeeming after 5 codes that are no code within 10 minutes, for 10 minutes. A deploy may tighten them (docs/decisions/054-deploy-locks.md): at least 3 failures, windows and locks of at most a day. Over them, 429 SIGN_IN_LOCKED or REDEEM_LOCKED with Retry-After. No sign-in needed.",
  schema: locksSchema,
  inForce: "The locks in force",
});

const timeLimits = published({
  path: "/time-limits",
  summary: "This deploy's time limits on orders, claims and sessions",
  description:
    "The product closes an unpaid order after 30 minutes, lapses a claim not submitted within 24 hours (or by the task's deadline, if sooner), approves a submission nobody checked within 72 hours, and ends a session unused for 30 days. A deploy may shorten them (docs/decisions/055-deploy-time-limits.md, docs/decisions/057-deploy-session-idle-days.md): to no less than 5 minutes, 1 hour, 24 hours and 1 day. The first three are fixed when their order, claim or submission is made (an order's and a claim's `expiresAt`, a claim's `autoApproveAt`); a session's applies to every session at once. No sign-in needed.",
  schema: timeLimitsSchema,
  inForce: "The time limits in force",
});

const taskLimits = published({
  path: "/task-limits",
  summary: "This deploy's bounds on a task's completions and deadline",
  description:
    "The product's bounds are 1 to 1,000 completions (the schema's `slots`) and a deadline between 1 hour and 30 days ahead (counted from the origin's clock). A deploy may tighten them (docs/decisions/058-deploy-task-limits.md), and then refuses a task past its own with 400 naming `slots`, or 422 DEADLINE_OUT_OF_RANGE naming `deadline`. No sign-in needed.",
  schema: taskLimitsSchema,
  inForce: "The task limits in force",
});

const textLimits = published({
  path: "/text-limits",
  summary: "This deploy's longest texts: a task's title and description, a proof, a transfer's note, a message to support",
  description:
    "The contract's schemas state the product's lengths: a title 80, a description 2,000, a proof 2,000, a note 140, a message to support 4,000. A deploy may shorten them (docs/decisions/059-deploy-text-limits.md), counted in code points of the text as stored (NFC-normalised, trimmed, empty when it shows nothing), and then refuses a longer text with 400 naming its field. No sign-in needed.",
  schema: textLimitsSchema,
  inForce: "The text limits in force",
});

/** What a deploy sets of the product's rules, published: the same for everyone, no database read. */
export const limitsRoutes = new OpenAPIHono<OriginEnv>()
  .openapi(limits, (c) => c.json({ code: "SUCCESS" as const, data: limitsOf(c.env) }, 200))
  .openapi(locks, (c) => c.json({ code: "SUCCESS" as const, data: locksOf(c.env) }, 200))
  .openapi(timeLimits, (c) => c.json({ code: "SUCCESS" as const, data: timeLimitsOf(c.env) }, 200))
  .openapi(taskLimits, (c) => c.json({ code: "SUCCESS" as const, data: taskLimitsOf(c.env) }, 200))
  .openapi(textLimits, (c) => c.json({ code: "SUCCESS" as const, data: textLimitsOf(c.env) }, 200));
