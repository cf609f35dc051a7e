// A group of schemas fetched on first use (app/contract-schemas.ts): import it from there only.
export {
  deviceIdParamSchema,
  forgetDeviceBodySchema,
  newRecoveryCodesBodySchema,
  passkeyOptionsBodySchema,
  passwordChangeBodySchema,
  profileBodySchema,
  sessionIdParamSchema,
} from "#contract/account-safety";
export { renamePasskeyBodySchema } from "#contract/passkey-name";
