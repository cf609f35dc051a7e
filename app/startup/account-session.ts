import type { UserInfo } from "#contract/user-info";
import { postApi } from "../api/client";
import { safeStorage } from "./safe-storage";
import { updateStartupState } from "./startup-state";
import { fetchSession } from "./session";
import { readToken, storeToken, tokenStorageKey } from "./token";

const device = safeStorage(() => window.localStorage);

export function currentToken(): string | null {
  return readToken(device);
}

/** After sign-in: keep the token and show the user everywhere at once. */
export function signedIn(token: string, user: UserInfo): void {
  storeToken(device, token);
  updateStartupState({ ready: true, session: "signed-in", user });
  if (window.paydesk) window.paydesk.user = user;
}

/** Sign-out ends the session at the origin and clears every personal view. */
export async function signOut(): Promise<void> {
  const token = currentToken();
  storeToken(device, null);
  updateStartupState({ session: "signed-out", user: null, signedInByLink: false, pendingSignInLink: null });
  if (window.paydesk) window.paydesk.user = null;
  if (token) await postApi("/api/user/logout", undefined, { token });
}

/**
 * After a money movement: reads the user afresh so the header's balance (and every view
 * of the user) changes without a reload. A failure keeps what is shown.
 */
export async function refreshUser(): Promise<void> {
  const token = currentToken();
  if (!token) return;
  const answer = await postApi<UserInfo>("/api/user/session", undefined, { token });
  if (answer.code === "SUCCESS") {
    updateStartupState({ session: "signed-in", user: answer.data });
    if (window.paydesk) window.paydesk.user = answer.data;
  } else if (answer.code === "UNAUTHENTICATED") {
    // The session ended elsewhere (expired, signed out on another device): sign out here too.
    storeToken(device, null);
    updateStartupState({ session: "signed-out", user: null, signedInByLink: false });
    if (window.paydesk) window.paydesk.user = null;
  }
}

/** The person chose the held sign-in link's account: it replaces the one signed in. */
export async function switchToPendingLink(link: string): Promise<void> {
  const result = await fetchSession(link);
  if (result.status !== "signed-in") {
    updateStartupState({ pendingSignInLink: null });
    return;
  }
  storeToken(device, result.replacementToken ?? link);
  updateStartupState({ session: "signed-in", user: result.user, pendingSignInLink: null, signedInByLink: true });
  if (window.paydesk) window.paydesk.user = result.user;
}

export function dismissPendingLink(): void {
  updateStartupState({ pendingSignInLink: null });
}

/**
 * Signing in or out in another tab changes the stored token; this tab then shows another
 * person's (or nobody's) data. Reloading starts it afresh as whoever is signed in now.
 */
export function followOtherTabs(): void {
  window.addEventListener("storage", (event) => {
    if (event.key === tokenStorageKey && event.newValue !== event.oldValue) window.location.reload();
  });
}
