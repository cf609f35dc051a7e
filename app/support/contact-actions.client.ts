/*
 * What /contact runs on a submit: a chunk fetched once the browser is idle, not with the
 * page's first visit (app/routes/contact.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { sendContactMessage } from "../api/support";
import { attempt, checked, formText, type ActionResult } from "../forms/action-result";
import { dispatchIntent } from "../forms/intent-dispatch";
import { currentLanguage } from "../i18n/messages";
import { ticketFields } from "../messages/ticket-fields";
import { currentTextLimits, sayLength } from "../text-limits";
import { contactBodySchema } from "#contract/support";

// Works signed out (docs/screens.md): no token, an email address to answer instead.
function sendContactForm(form: FormData) {
  // The deploy's longest message (app/text-limits.ts), held before sending as the origin holds it.
  const messageLength = currentTextLimits().support.message;
  return attempt("contact", async () => {
    const body = await checked(
      contactBodySchema,
      {
        email: formText(form, "email").trim(),
        category: formText(form, "category") || "other",
        subject: formText(form, "subject").trim(),
        message: formText(form, "message").trim(),
      },
      ticketFields(currentLanguage(), sayLength(messageLength)),
      {},
      { message: messageLength },
    );
    return sendContactMessage(body, formText(form, "idempotencyKey"));
  });
}

/** The contact form's intent, checked and sent. */
export function actOnContactForm(form: FormData): Promise<ActionResult<{ id: string }>> {
  return dispatchIntent(form, { contact: sendContactForm });
}
