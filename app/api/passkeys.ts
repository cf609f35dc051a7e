import type { z } from "zod";
import type {
  AuthenticationOptions,
  addPasskeyBodySchema,
  Passkey,
  PasskeyList,
  passkeySignInBodySchema,
  RegistrationOptions,
} from "#contract/passkeys";
import type { SignInAnswer } from "#contract/account";
import type { renamePasskeyBodySchema } from "#contract/passkey-name";
import { apiPath } from "./api-path";
import { postApi, unwrap, type SignedInApi } from "./client";

// My passkeys (/account) and signing in with one (/login): docs/decisions/025-passkeys.md.

/** Adding a passkey starts with the password (docs/decisions/024-account-safety.md). */
export function passkeyRegistrationOptions(api: SignedInApi, password: string): Promise<RegistrationOptions> {
  return api.post<RegistrationOptions>("/api/account/passkeys/options", { password });
}

export function addPasskey(api: SignedInApi, body: z.input<typeof addPasskeyBodySchema>, idempotencyKey: string): Promise<Passkey> {
  return api.post<Passkey>("/api/account/passkeys", body, idempotencyKey);
}

export async function listPasskeys(api: SignedInApi): Promise<Passkey[]> {
  return (await api.get<PasskeyList>("/api/account/passkeys")).passkeys;
}

export function renamePasskey(api: SignedInApi, id: string, body: z.input<typeof renamePasskeyBodySchema>): Promise<Passkey> {
  return api.post<Passkey>(apiPath`/api/account/passkeys/${id}/rename`, body);
}

export function removePasskey(api: SignedInApi, id: string): Promise<null> {
  return api.post<null>(apiPath`/api/account/passkeys/${id}/remove`, undefined);
}

export async function passkeySignInOptions(): Promise<AuthenticationOptions> {
  return unwrap(await postApi<AuthenticationOptions>("/api/user/passkey/options", undefined));
}

/** A new bearer token and its user, as the password sign-in answers. */
export async function passkeySignIn(body: z.input<typeof passkeySignInBodySchema>): Promise<SignInAnswer> {
  return unwrap(await postApi<SignInAnswer>("/api/user/passkey/login", body));
}
