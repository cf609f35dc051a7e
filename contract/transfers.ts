import { z } from "zod";
import { handleSchema } from "./account";
import { minorUnits } from "./money";
import { type Person, personSchema } from "./people";
import { userText } from "./text";

/** docs/rules-and-limits.md: ¥0.01 – ¥50,000.00 each, ¥100,000.00 per day, a note of up to 140 characters. */
const transferLimits = { min: 1, max: 5_000_000, perDay: 10_000_000, noteLength: 140 } as const;

export const recipientQuerySchema = z.strictObject({ handle: handleSchema });

export const recipientSchema = personSchema;
export type Recipient = Person;

export const transferBodySchema = z.strictObject({
  toHandle: handleSchema,
  amount: minorUnits(transferLimits.min, transferLimits.max),
  note: userText({ min: 0, max: transferLimits.noteLength, tooShort: "", tooLong: "A note has at most 140 characters." }).default(""),
});

export const transferReceiptSchema = z.strictObject({
  id: z.string(),
  to: recipientSchema,
  amount: z.number().int(),
  note: z.string(),
  createdAt: z.iso.datetime(),
});
export type TransferReceipt = z.infer<typeof transferReceiptSchema>;
