import { z } from "zod";
import { defaultLimits } from "./money-limits";
import { defaultTaskLimits } from "./task-limits";
import { minorUnits } from "./money";
import { userText } from "./text";
import { orderReferrerSchema, orderSchema } from "./orders";
import { personSchema } from "./people";

/**
 * docs/rules-and-limits.md, tasks: the product's bounds, which the schema publishes. A deploy
 * may tighten the reward, the completions and the deadline's window (MONEY_LIMITS,
 * TASK_LIMITS), which the origin checks on top of the schema.
 */
const taskLimits = {
  titleLength: 80,
  descriptionLength: 2_000,
  reward: defaultLimits.taskReward,
  slots: { min: 1, max: defaultTaskLimits.slots.max },
} as const;

export const postTaskBodySchema = z.strictObject({
  title: userText({
    min: 1,
    max: taskLimits.titleLength,
    tooShort: "Give the task a title.",
    tooLong: "A title has at most 80 characters.",
  }),
  description: userText({
    min: 1,
    multiline: true,
    max: taskLimits.descriptionLength,
    tooShort: "Describe what to do.",
    tooLong: "A description has at most 2,000 characters.",
  }),
  reward: minorUnits(taskLimits.reward.min, taskLimits.reward.max),
  slots: z
    .number({ error: "Enter how many people may complete the task." })
    .int("Enter a whole number of completions.")
    .min(taskLimits.slots.min, "At least 1 completion.")
    .max(taskLimits.slots.max, "At most 1,000 completions."),
  /** Between 1 hour and 30 days ahead (or the deploy's window); checked against the origin's clock. */
  deadline: z.iso.datetime({ offset: true, error: "Enter the deadline as a date and time." }),
  /** Carried to the order that pays the budget. */
  referrer: orderReferrerSchema,
});

const taskStatuses = ["awaiting_payment", "open", "closed", "cancelled"] as const;

export const taskSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  reward: z.number().int(),
  slots: z.number().int(),
  deadline: z.iso.datetime(),
  status: z.enum(taskStatuses),
  orderId: z.string(),
  /** Who posted it, and so who checks the work and pays the reward. */
  poster: personSchema,
  /** What is still held for this task (the poster sees it). */
  escrowRemaining: z.number().int(),
  slotsLeft: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type Task = z.infer<typeof taskSchema>;

export const postedTaskSchema = z.strictObject({ task: taskSchema, order: orderSchema });

const taskIdSchema = z.string().regex(/^tsk_[0-9a-f-]{36}$/, "Not a task id.");
const claimIdSchema = z.string().regex(/^clm_[0-9a-f-]{36}$/, "Not a claim id.");

/**
 * Open tasks of others, soonest deadline first, at most 100; or my own, newest first, 100 at
 * a time (`personalListPageSize`): `before`, the id of the oldest I have, asks for the ones
 * posted before it (an id not mine answers nothing). Only my own are paged: the available
 * tab does not read `before`.
 */
export const taskListQuerySchema = z.strictObject({
  tab: z.enum(["available", "posted"]),
  before: taskIdSchema.optional().meta({ description: "tab=posted: the id of the oldest of my tasks I have; ignored by tab=available" }),
});

/**
 * My claims, newest first, 100 at a time (`before` as for tasks); or submissions waiting for
 * my check, oldest first, at most 100, which do not read `before`.
 */
export const claimListQuerySchema = z.strictObject({
  view: z.enum(["mine", "to_check"]),
  before: claimIdSchema.optional().meta({ description: "view=mine: the id of the oldest of my claims I have; ignored by view=to_check" }),
});

/** `lapsed`: not submitted in time; `withdrawn`: given up by its worker before submitting. Either frees its slot. */
export const claimStatuses = ["claimed", "submitted", "approved", "rejected", "lapsed", "withdrawn"] as const;

export const claimSchema = z.strictObject({
  id: z.string(),
  task: z.strictObject({ id: z.string(), title: z.string(), reward: z.number().int() }),
  /** Who claimed it: the person a poster approves (pays) or rejects. */
  worker: personSchema,
  status: z.enum(claimStatuses),
  expiresAt: z.iso.datetime(),
  proof: z.strictObject({ text: z.string(), url: z.string().nullable() }).nullable(),
  rejectReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  submittedAt: z.iso.datetime().nullable(),
  /** When a submission its poster has not decided is approved and paid: fixed when it is sent (the deploy's TIME_LIMITS then). */
  autoApproveAt: z.iso.datetime().nullable(),
  decidedAt: z.iso.datetime().nullable(),
});
export type Claim = z.infer<typeof claimSchema>;

export const submitProofBodySchema = z.strictObject({
  text: userText({
    min: 1,
    max: 2_000,
    multiline: true,
    tooShort: "Describe what you did.",
    tooLong: "Proof has at most 2,000 characters.",
  }),
  // The same rule as the column's CHECK: `https:x.com` parses as a URL but is not a link.
  url: z
    .url({ protocol: /^https$/, error: "A link must start with https://." })
    .regex(/^https:\/\/[^/\\]/, "A link must start with https://.")
    .max(2_048)
    // Stated in the published schema too: the pattern alone would let any text after https:// pass.
    .meta({ format: "uri" })
    .optional(),
});

export const rejectBodySchema = z.strictObject({
  reason: userText({
    min: 1,
    max: 500,
    multiline: true,
    tooShort: "Tell the worker why.",
    tooLong: "A reason has at most 500 characters.",
  }),
});

export const taskIdParamSchema = z.strictObject({ id: taskIdSchema });
export const claimIdParamSchema = z.strictObject({ id: claimIdSchema });
/** Paying an order lives in ./payments (wallet or WeChat Pay); kept here for older imports. */
