/**
 * The passkey mark: inlined in <head> beside the token mark, it marks the document when the
 * browser can use passkeys at all. /login's passkey button is in the server's HTML for
 * everyone and app/styles/account.css shows it only on a marked document, so it is there
 * from the first paint instead of appearing after hydration and pushing the form down (a
 * layout shift Lighthouse counted on /login: docs/decisions/032-login-at-first-paint.md).
 *
 * It sets `data-passkeys` on <html>. Kept as source text, ES5-simple, like the token mark.
 */
export const passkeyMarkSource = `if(typeof PublicKeyCredential==="function")document.documentElement.setAttribute("data-passkeys","");`;
