import type { z } from "zod";
import type { addPasskeyBodySchema, AuthenticationOptions, passkeySignInBodySchema, RegistrationOptions } from "#contract/passkeys";
import { currentLanguage } from "../i18n/messages";
import { passkeyRefusalMessages } from "../messages/passkey-refusals";
import { type DeviceRefusal, PasskeyDeviceError } from "./webauthn-support";

/*
 * The passkey ceremonies in the browser. @simplewebauthn/browser is imported only when a passkey is
 * actually made or used, so the route chunks of /login and /account stay small
 * (docs/decisions/025-passkeys.md).
 */
const browserLibrary = () => import("@simplewebauthn/browser");

type RegistrationAnswer = z.input<typeof addPasskeyBodySchema>["credential"];
type AuthenticationAnswer = z.input<typeof passkeySignInBodySchema>["credential"];

function refusalOf(error: unknown): PasskeyDeviceError {
  const name = error instanceof Error ? error.name : "";
  // The library rethrows the browser's DOMException names (it keeps them as `name`).
  const reason: DeviceRefusal =
    name === "NotAllowedError" || name === "AbortError" ? "cancelled" : name === "InvalidStateError" ? "alreadyOnDevice" : "deviceFailed";
  return new PasskeyDeviceError(reason, passkeyRefusalMessages[currentLanguage()][reason]);
}

/** `navigator.credentials.create()` for the origin's options, answered in WebAuthn's JSON form. */
export async function createPasskey(options: RegistrationOptions): Promise<RegistrationAnswer> {
  const { startRegistration } = await browserLibrary();
  try {
    const answer = await startRegistration({ optionsJSON: options });
    return { ...answer, clientExtensionResults: { ...answer.clientExtensionResults } };
  } catch (error) {
    throw refusalOf(error);
  }
}

/**
 * `navigator.credentials.get()`: with `autofill`, the browser waits for the person to pick a
 * passkey in the handle field's suggestions (conditional mediation) instead of asking now.
 */
export async function getPasskey(options: AuthenticationOptions, { autofill }: { autofill: boolean }): Promise<AuthenticationAnswer> {
  const { startAuthentication } = await browserLibrary();
  try {
    const answer = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
    return { ...answer, clientExtensionResults: { ...answer.clientExtensionResults } };
  } catch (error) {
    throw refusalOf(error);
  }
}

/** Ends a waiting request (the autofill one, when the page goes away). */
export async function cancelPasskeyRequest(): Promise<void> {
  const { WebAuthnAbortService } = await browserLibrary();
  WebAuthnAbortService.cancelCeremony();
}
