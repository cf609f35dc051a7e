/*
 * What a page asks before any passkey is made or used: whether the browser can, and how a
 * device's refusal is recognised. Apart from the ceremonies (./webauthn.ts), which /login
 * fetches only when a passkey is used (docs/decisions/043-screens-after-start-up.md); they
 * also bring what a refusal is called.
 */

/** Whether this browser has WebAuthn at all (read after hydration; the server renders without). */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Whether the browser offers passkeys in a field's autofill (conditional mediation). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  try {
    return (await PublicKeyCredential.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

/** Why the device gave no passkey, as the page tells it. */
export type DeviceRefusal = "cancelled" | "alreadyOnDevice" | "deviceFailed";

/** A device's refusal, with its message in the page's language (made by ./webauthn.ts). */
export class PasskeyDeviceError extends Error {
  constructor(
    readonly reason: DeviceRefusal,
    message: string,
  ) {
    super(message);
    this.name = "PasskeyDeviceError";
  }
}
