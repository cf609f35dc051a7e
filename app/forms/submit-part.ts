import { currentLanguage } from "../i18n/messages";
import { messageFor, partNeedsReloadMessage } from "../messages/errors";
import type { Part } from "../startup/on-first-use";
import type { ActionResult } from "./action-result";

/**
 * A submit of a form drawn at once, whose code is a part fetched when the browser is idle
 * (usePrefetchWhenIdle, docs/decisions/043-screens-after-start-up.md). If the part cannot
 * be fetched now, nothing is sent and the form says Paydesk cannot be reached, as when a
 * group of schemas cannot be (app/contract-schemas.ts): what was typed stays, and the next
 * submit asks for the part again. A chunk it imports that failed (zod) comes back only
 * with a reload (docs/decisions/067-form-rules-with-their-form.md): then the form says
 * that (docs/decisions/068-a-part-that-needs-a-reload-says-so.md). The page is not
 * reloaded under the person.
 */
export async function submitWith<M, R>(
  part: Part<M>,
  request: Request,
  act: (module: M, form: FormData) => Promise<R>,
): Promise<R | ActionResult<never>> {
  const [module, form] = await Promise.all([part.prefetch(), request.formData()]);
  if (module) return act(module, form);
  const intent = form.get("intent");
  const message = part.needsReload()
    ? await partNeedsReloadMessage(currentLanguage())
    : await messageFor("ORIGIN_UNAVAILABLE", currentLanguage());
  return { intent: typeof intent === "string" ? intent : "", ok: false, failure: { code: "ORIGIN_UNAVAILABLE", message } };
}
