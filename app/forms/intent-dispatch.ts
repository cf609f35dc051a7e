import type { Language } from "../i18n/languages";
import { currentLanguage } from "../i18n/messages";
import { formMessages } from "../messages/forms";
import { formText, type ActionResult } from "./action-result";

/** A client action's handler for one intent (the form's hidden `intent` field). */
export type IntentHandler<R> = (form: FormData) => Promise<R>;

/**
 * The answer to a form whose intent no handler takes: a stale page, or a form sent by
 * hand. It is refused, never taken for some default action.
 */
export function unknownIntent(intent: string, language: Language = currentLanguage()): ActionResult<never> {
  return { intent, ok: false, failure: { code: "BAD_REQUEST", field: "intent", message: formMessages[language].unknownIntent } };
}

/** Hands the form to the handler of its intent; an intent with no handler is refused. */
export function dispatchIntent<H extends Readonly<Record<string, IntentHandler<unknown>>>>(
  form: FormData,
  handlers: H,
): Promise<Awaited<ReturnType<H[keyof H]>> | ActionResult<never>> {
  const intent = formText(form, "intent");
  // Own keys only: "constructor" or "toString" name no handler.
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  return handler ? (handler(form) as Promise<Awaited<ReturnType<H[keyof H]>>>) : Promise.resolve(unknownIntent(intent));
}
