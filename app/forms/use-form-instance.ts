import { useEffect, useRef, useState } from "react";
import { isDefiniteRefusal } from "../messages/errors";
import { safeStorage } from "../storage/safe-storage";
import type { ActionResult } from "./action-result";
import { failedFields } from "./failure-fields";

const newKey = () => crypto.randomUUID();
const keyStore = safeStorage(() => window.sessionStorage);
const storedKeyName = (name: string) => `paydesk:idempotency:${name}`;

export type FormInstanceOptions = {
  /** Clear the form after a success (not when the screen moves on by itself). */
  resetOnSuccess?: boolean;
  /**
   * Names what this submission is (e.g. a transfer's recipient, amount and note). Its key
   * then lives in this tab's sessionStorage until an answer settles it, so going back,
   * changing nothing and sending again — or reloading the page — after an answer that never
   * came reuses the key, and the origin replays the first effect instead of repeating it.
   */
  persistAs?: string;
};

/**
 * One form instance: its Idempotency-Key and what happens after an answer.
 * - The key is made in the browser (never in the cached HTML, which every visitor shares),
 *   kept for a retry when no answer came, and renewed after a success or a definite
 *   refusal, when the next submission is a new request.
 * - After a failure, focus moves to the first field in error, else to the form's alert.
 * - After a success the form is cleared, unless the screen moves on by itself.
 *
 * The schema that checks it before it is sent is fetched once the browser is idle, with
 * what a signed-out form runs on a submit, or by the component that draws the form
 * (docs/decisions/067-form-rules-with-their-form.md).
 */
export function useFormInstance(result: ActionResult | undefined, { resetOnSuccess = true, persistAs }: FormInstanceOptions = {}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [idempotencyKey, setIdempotencyKey] = useState("");
  // Read when an answer arrives: the answer settles the key of the submission it was for.
  const persisted = useRef(persistAs);
  persisted.current = persistAs;
  useEffect(() => {
    if (!persistAs) {
      setIdempotencyKey((key) => key || newKey());
      return;
    }
    const stored = keyStore.get(storedKeyName(persistAs));
    const key = stored || newKey();
    keyStore.set(storedKeyName(persistAs), key);
    setIdempotencyKey(key);
  }, [persistAs]);
  useEffect(() => {
    if (!result) return;
    if (result.ok || isDefiniteRefusal(result.failure.code)) {
      const key = newKey();
      if (persisted.current) keyStore.set(storedKeyName(persisted.current), result.ok ? "" : key);
      setIdempotencyKey(key);
    }
    if (result.ok) {
      if (resetOnSuccess) formRef.current?.reset();
      return;
    }
    const form = formRef.current;
    const refused = new Set(failedFields(result));
    // A button's name (which of several things it acts on) is no field to mend.
    const field = [...(form?.querySelectorAll<HTMLElement>("[name]:not([type=hidden]):not(button)") ?? [])].find((element) =>
      refused.has(element.getAttribute("name") ?? ""),
    );
    (field ?? form?.querySelector<HTMLElement>("[data-form-alert]"))?.focus();
  }, [result, resetOnSuccess]);
  return { formRef, idempotencyKey };
}
