import { z } from "zod";
import { userText } from "./text";

/*
 * A passkey's name, apart from contract/passkeys.ts: the pages check it before asking the
 * device, and importing only this keeps the WebAuthn schemas (and the zod they build) out
 * of the chunks every page shares.
 */
export const passkeyNameSchema = userText({
  min: 1,
  max: 64,
  tooShort: "Give the passkey a name, such as the device it is on.",
  tooLong: "A passkey's name has at most 64 characters.",
});

export const renamePasskeyBodySchema = z.strictObject({ name: passkeyNameSchema });
