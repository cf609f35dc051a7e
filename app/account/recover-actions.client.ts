/*
 * What /recover runs on a submit: a chunk fetched once the browser is idle, not with the
 * page's first visit (app/routes/recover.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { recoverWithCode, recoverWithLink } from "../api/account-safety";
import { attempt, checked, formText, type ActionResult } from "../forms/action-result";
import { dispatchIntent } from "../forms/intent-dispatch";
import { typedHandle } from "../forms/typed-handle";
import { currentLanguage } from "../i18n/messages";
import { recoverMessages } from "../messages/recover";
import { keepThisDeviceToken, thisDeviceTokenFor } from "../session/known-devices";
import type { PasswordSignInAnswer } from "#contract/account";
import { recoverWithCodeBodySchema, recoverWithLinkBodySchema } from "#contract/account-safety";

const fieldMessages = () => recoverMessages[currentLanguage()].fields;

/** Recovery makes this browser the person's first known device again (docs/decisions/061-known-devices.md). */
function keptHere(answer: PasswordSignInAnswer): PasswordSignInAnswer {
  keepThisDeviceToken(answer.user.handle, answer.deviceToken);
  return answer;
}

const recoverIntents = {
  code: (form: FormData) =>
    attempt("code", async () => {
      const handle = typedHandle(formText(form, "handle"));
      const body = await checked(
        recoverWithCodeBodySchema,
        {
          handle,
          code: formText(form, "code").trim(),
          newPassword: formText(form, "newPassword"),
          deviceToken: thisDeviceTokenFor(handle),
        },
        fieldMessages(),
      );
      return keptHere(await recoverWithCode(body));
    }),
  link: (form: FormData) =>
    attempt("link", async () =>
      keptHere(
        await recoverWithLink(
          await checked(
            recoverWithLinkBodySchema,
            { link: formText(form, "link"), newPassword: formText(form, "newPassword") },
            fieldMessages(),
          ),
        ),
      ),
    ),
};

/** The recovery form's intent (a recovery code, or a link from support), checked and sent. */
export function actOnRecoverForm(form: FormData): Promise<ActionResult> {
  return dispatchIntent(form, recoverIntents);
}
