import { useEffect, useRef, useState } from "react";
import { isDefiniteRefusal } from "../messages/errors";
import type { ActionResult } from "./action-result";

const newKey = () => crypto.randomUUID();

/**
 * One form instance: its Idempotency-Key and what happens after an answer.
 * - The key is made in the browser (never in the cached HTML, which every visitor shares),
 *   kept for a retry when no answer came, and renewed after a success or a definite
 *   refusal, when the next submission is a new request.
 * - After a failure, focus moves to the first field in error, else to the form's alert.
 * - After a success the form is cleared, unless the screen moves on by itself.
 */
export function useFormInstance(result: ActionResult | undefined, { resetOnSuccess = true } = {}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [idempotencyKey, setIdempotencyKey] = useState("");
  useEffect(() => setIdempotencyKey((key) => key || newKey()), []);
  useEffect(() => {
    if (!result) return;
    if (result.ok || isDefiniteRefusal(result.failure.code)) setIdempotencyKey(newKey());
    if (result.ok) {
      if (resetOnSuccess) formRef.current?.reset();
      return;
    }
    const form = formRef.current;
    const field = result.failure.field ? form?.querySelector<HTMLElement>(`[name="${CSS.escape(result.failure.field)}"]:not([type=hidden])`) : null;
    (field ?? form?.querySelector<HTMLElement>("[data-form-alert]"))?.focus();
  }, [result, resetOnSuccess]);
  return { formRef, idempotencyKey };
}

/** The failure to show beside a field, if it concerns that field. */
export function fieldError(result: ActionResult | undefined, name: string): string | undefined {
  return result && !result.ok && result.failure.field === name ? result.failure.message : undefined;
}
