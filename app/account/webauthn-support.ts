/*
 * What a page asks before any passkey is made or used: whether the browser can, and what a
 * device's refusal is called. Apart from the ceremonies (./webauthn.ts), which /login fetches
 * only when a passkey is used (docs/decisions/043-screens-after-start-up.md).
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

export class PasskeyDeviceError extends Error {
  constructor(readonly reason: DeviceRefusal) {
    super(reason);
    this.name = "PasskeyDeviceError";
  }
}
