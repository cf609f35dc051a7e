/*
 * What signing in with a passkey runs once it is used (the button, or the browser's autofill
 * where it offers passkeys): a chunk fetched then, not with /login's first visit
 * (app/account/passkey-sign-in.tsx, docs/decisions/043-screens-after-start-up.md).
 */
export { passkeySignIn, passkeySignInOptions } from "../api/passkeys";
export { cancelPasskeyRequest, getPasskey } from "./webauthn";
