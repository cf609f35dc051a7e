import { addPasskey, passkeyRegistrationOptions, removePasskey, renamePasskey } from "../api/passkeys";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { currentLanguage } from "../i18n/messages";
import { passkeyMessages } from "../messages/passkeys";
import { createPasskey } from "./webauthn";
import { PasskeyDeviceError } from "./webauthn-support";
import { accountSchemas } from "../contract-schemas";

const fieldMessages = () => passkeyMessages[currentLanguage()].fields;

/** A refusal by the device (cancelled, already there), told in the page's words; anything else goes on. */
async function withDevice<T>(intent: string, work: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PasskeyDeviceError)) throw error;
    return { intent, ok: false, failure: { code: "BAD_REQUEST", message: error.message } };
  }
}

/** The passkeys section's forms (app/account/passkeys-section.tsx), as intents of /account's action. */
export const passkeyIntents = {
  addPasskey: (form: FormData) =>
    withDevice("addPasskey", () =>
      runAction("addPasskey", async (api) => {
        // The name is checked before the device is asked: a passkey made and then refused would be an orphan.
        // Both fields in one check, so both are told at once when both are wrong.
        const schemas = await accountSchemas.load();
        const { name, password } = await checked(
          schemas.renamePasskeyBodySchema.extend(schemas.passkeyOptionsBodySchema.shape),
          { name: formText(form, "name"), password: formText(form, "password") },
          fieldMessages(),
        );
        const options = await passkeyRegistrationOptions(api, password);
        const credential = await createPasskey(options);
        // One key per ceremony: a retry of this very answer replays, a new passkey is a new request.
        return addPasskey(api, { name, credential }, `${formText(form, "idempotencyKey")}:${options.challenge.slice(0, 32)}`);
      }),
    ),
  renamePasskey: (form: FormData) =>
    runAction("renamePasskey", async (api) =>
      renamePasskey(
        api,
        formText(form, "id"),
        await checked((await accountSchemas.load()).renamePasskeyBodySchema, { name: formText(form, "name") }, fieldMessages()),
      ),
    ),
  removePasskey: (form: FormData) => runAction("removePasskey", (api) => removePasskey(api, formText(form, "id"))),
};
