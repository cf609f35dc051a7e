import { z } from "zod";
import { handleSchema } from "./account";
import { defaultLimits } from "./money-limits";
import { minorUnits } from "./money";
import { type Person, personSchema } from "./people";
import { userText } from "./text";

/** docs/rules-and-limits.md: a note of up to 140 characters; the amounts are contract/money-limits.ts's. */
const noteLength = 140;

export const recipientQuerySchema = z.strictObject({ handle: handleSchema });

export const recipientSchema = personSchema;
export type Recipient = Person;

export const transferBodySchema = z.strictObject({
  toHandle: handleSchema,
  amount: minorUnits(defaultLimits.transfer.min, defaultLimits.transfer.max),
  note: userText({ min: 0, max: noteLength, tooShort: "", tooLong: "A note has at most 140 characters." }).default(""),
});

export const transferReceiptSchema = z.strictObject({
  id: z.string(),
  to: recipientSchema,
  amount: z.number().int(),
  note: z.string(),
  createdAt: z.iso.datetime(),
});
export type TransferReceipt = z.infer<typeof transferReceiptSchema>;
