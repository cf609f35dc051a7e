import type { z } from "zod";
import type { PasswordSignInAnswer } from "#contract/account";
import type {
  AccountDevice,
  AccountSession,
  forgetDeviceBodySchema,
  passwordChangeBodySchema,
  PasswordChanged,
  profileBodySchema,
  RecoveryCodes,
  RecoveryCodesStatus,
  recoverWithCodeBodySchema,
  recoverWithLinkBodySchema,
} from "#contract/account-safety";
import type { UserInfo } from "#contract/user-info";
import { apiPath } from "./api-path";
import { postApi, unwrap, type SignedInApi } from "./client";

// The account page's calls and /recover's (docs/decisions/024-account-safety.md).

export function changeProfile(api: SignedInApi, body: z.input<typeof profileBodySchema>): Promise<UserInfo> {
  return api.post<UserInfo>("/api/account/profile", body);
}

export function changePassword(api: SignedInApi, body: z.input<typeof passwordChangeBodySchema>): Promise<PasswordChanged> {
  return api.post<PasswordChanged>("/api/account/password", body);
}

export async function listSessions(api: SignedInApi): Promise<AccountSession[]> {
  return (await api.get<{ sessions: AccountSession[] }>("/api/account/sessions")).sessions;
}

export function endSession(api: SignedInApi, id: string): Promise<{ sessionsEnded: number }> {
  return api.post<{ sessionsEnded: number }>(apiPath`/api/account/sessions/${id}/end`, {});
}

export function endOtherSessions(api: SignedInApi): Promise<{ sessionsEnded: number }> {
  return api.post<{ sessionsEnded: number }>("/api/account/sessions/end-others", {});
}

/** The browsers that have proved the password and are still known (docs/decisions/069-known-devices-listed.md). */
export async function listDevices(api: SignedInApi): Promise<AccountDevice[]> {
  return (await api.get<{ devices: AccountDevice[] }>("/api/account/devices")).devices;
}

export function forgetDevice(
  api: SignedInApi,
  id: string,
  body: z.input<typeof forgetDeviceBodySchema>,
): Promise<{ devicesForgotten: number }> {
  return api.post<{ devicesForgotten: number }>(apiPath`/api/account/devices/${id}/forget`, body);
}

export function recoveryCodesStatus(api: SignedInApi): Promise<RecoveryCodesStatus> {
  return api.get<RecoveryCodesStatus>("/api/account/recovery-codes");
}

export function makeRecoveryCodes(api: SignedInApi, password: string): Promise<RecoveryCodes> {
  return api.post<RecoveryCodes>("/api/account/recovery-codes", { password });
}

/** Signed out: the handle and a recovery code set a new password and sign in. */
export async function recoverWithCode(body: z.input<typeof recoverWithCodeBodySchema>): Promise<PasswordSignInAnswer> {
  return unwrap(await postApi<PasswordSignInAnswer>("/api/user/recover", body));
}

/** Signed out: an admin's recovery link sets a new password and signs in. */
export async function recoverWithLink(body: z.input<typeof recoverWithLinkBodySchema>): Promise<PasswordSignInAnswer> {
  return unwrap(await postApi<PasswordSignInAnswer>("/api/user/recover-with-link", body));
}
