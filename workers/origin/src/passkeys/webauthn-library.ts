/**
 * @simplewebauthn/server, loaded on the first passkey request rather than at start-up: with
 * its X.509 and ASN.1 dependencies it would otherwise add about 300 KB to the module every
 * cold start of the origin parses (docs/decisions/023-speed.md, 025-passkeys.md).
 */
export const simpleWebAuthn = () => import("@simplewebauthn/server");
