import type { z } from "zod";
import { ApiFailure, signedInApi, type SignedInApi } from "../api/client";
import type { ErrorCode } from "#contract/error-codes";
import { type MoneyRange, outsideRange } from "#contract/money-limits";
import { longerThan } from "#contract/text-limits";
import { storedText } from "#contract/stored-text";
import { currentLanguage } from "../i18n/messages";
import { messageFor, partNeedsReloadMessage } from "../messages/errors";
import { PartNeedsReload } from "../startup/on-first-use";
import { currentMoneyLimits } from "../money-limits";
import { refreshUser, currentToken } from "../session/account-session";

/**
 * Why a form was refused: the contract's code, the field it concerns, and what to tell the
 * user. The form's own check refuses every field in error at once: `fields` then holds each
 * one's message ("" for the form as a whole), `field` and `message` the first's.
 */
type FormFailure = { code: ErrorCode; field?: string; message: string; fields?: Readonly<Record<string, string>> };

export type ActionResult<T = unknown> = { intent: string; ok: true; data: T } | { intent: string; ok: false; failure: FormFailure };

/** Refused by the form's own check: the screen's message for the field, or the catalogue's. */
class InvalidInput extends Error {
  constructor(readonly fields: readonly { field?: string; message?: string }[]) {
    super("BAD_REQUEST");
  }
}

/**
 * Checks a form's values with the same schema the origin validates with, before sending
 * anything. Every failing field gets the screen's own message for it, in the page's
 * language, so one try shows all that needs mending. The schema comes with the code that
 * sends the form, a part fetched on first use, or from a group of schemas fetched on first
 * use (app/contract-schemas.ts): either way none of it is in a page's first load
 * (docs/decisions/067-form-rules-with-their-form.md). An amount is held to `ranges` too, and
 * a text to `lengths`: the deploy's limits, which may be tighter than the schema's
 * (app/money-limits.ts, app/task-limits.ts, app/text-limits.ts). A text's length is counted
 * as the origin counts it: code points of the text as stored (`storedText`: normalised,
 * trimmed, empty when blank).
 */
export async function checked<S extends z.ZodType, V extends Record<string, unknown>>(
  schema: S,
  values: V,
  fieldMessages: Record<string, string>,
  ranges: Partial<Record<keyof V & string, MoneyRange>> = {},
  lengths: Partial<Record<keyof V & string, number>> = {},
): Promise<z.output<S>> {
  const result = schema.safeParse(values);
  const outsideRanges = Object.entries(ranges).flatMap(([field, range]) => {
    const amount = values[field];
    return range && typeof amount === "number" && outsideRange(amount, range) !== null ? [field] : [];
  });
  const tooLong = Object.entries(lengths).flatMap(([field, max]) => {
    const text = values[field];
    // Counted as stored; a one-line field's U+2028 is refused by the schema anyway, so the multi-line reading serves both.
    return typeof text === "string" && typeof max === "number" && longerThan(storedText(text, { multiline: true }), max) ? [field] : [];
  });
  const outside = [...outsideRanges, ...tooLong];
  if (result.success && outside.length === 0) return result.data;
  const schemaFields = result.success ? [] : result.error.issues.map((issue) => String(issue.path[0] ?? ""));
  const fields = [...new Set([...schemaFields, ...outside])];
  throw new InvalidInput(fields.map((field) => ({ field: field || undefined, message: fieldMessages[field] })));
}

/** The form's own refusal: each field's message, the catalogue's where the screen has none. */
async function invalidInputFailure(error: InvalidInput): Promise<FormFailure> {
  const fallback = await messageFor("BAD_REQUEST", currentLanguage());
  const refused = error.fields.map(({ field, message }) => ({ field, message: message ?? fallback }));
  const first = refused[0] ?? { field: undefined, message: fallback };
  return {
    code: "BAD_REQUEST",
    field: first.field,
    message: first.message,
    // A refusal of no one field (the form as a whole) keeps the key "": the alert tells it.
    ...(refused.length > 1 ? { fields: Object.fromEntries(refused.map(({ field, message }) => [field ?? "", message])) } : {}),
  };
}

/**
 * One client action's work as the signed-in user, answered as data the form renders:
 * success, or a failure with a human message. Money may have moved either way, so the
 * header's balance is read afresh when `movesMoney` is set.
 */
export async function runAction<T>(
  intent: string,
  work: (api: SignedInApi) => Promise<T>,
  { movesMoney = false }: { movesMoney?: boolean } = {},
): Promise<ActionResult<T>> {
  const token = currentToken();
  if (!token)
    return { intent, ok: false, failure: { code: "UNAUTHENTICATED", message: await messageFor("UNAUTHENTICATED", currentLanguage()) } };
  try {
    return await attempt(intent, () => work(signedInApi(token)));
  } finally {
    if (movesMoney) await refreshUser();
  }
}

/** Work that may be refused (by the form's own check or by the origin), answered as an ActionResult. */
export async function attempt<T>(intent: string, work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { intent, ok: true, data: await work() };
  } catch (error) {
    if (error instanceof InvalidInput) return { intent, ok: false, failure: await invalidInputFailure(error) };
    if (error instanceof PartNeedsReload)
      return { intent, ok: false, failure: { code: error.code, message: await partNeedsReloadMessage(currentLanguage()) } };
    if (!(error instanceof ApiFailure)) throw error;
    // A transfer's daily refusal names the day's total this deploy allows (decision 053).
    const dailyLimit = currentMoneyLimits().transfer.perDay;
    const { originMessage, field, retryAfterSeconds } = error;
    const message = await messageFor(error.code, currentLanguage(), { originMessage, field, retryAfterSeconds, dailyLimit });
    return { intent, ok: false, failure: { code: error.code, field: error.field, message } };
  }
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
