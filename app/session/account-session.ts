import type { UserInfo } from "#contract/user-info";
import { endSession, postSession } from "../api/session";
import { safeStorage } from "../storage/safe-storage";
import { fetchSession, type SessionResult } from "./session-call";
import { getSessionState, updateSessionState } from "./session-state";
import { chooseToken, linkToConfirm, readToken, storeToken, tokenStorageKey } from "./token";

const device = safeStorage(() => window.localStorage);

export function currentToken(): string | null {
  return readToken(device);
}

/**
 * Start-up steps 4 (token) and 5 (session): a link's token is adopted unless another
 * account is signed in here (then it waits for the person's choice), and the origin
 * says who the token belongs to.
 */
export async function resumeSession(linkToken: string | null): Promise<void> {
  const pendingSignInLink = linkToConfirm(linkToken, device);
  const token = chooseToken(pendingSignInLink ? null : linkToken, device);
  // Without a token nobody can be signed in: no call, so no refusal for the console (docs/start-up.md).
  const result: SessionResult = token ? await fetchSession(token) : { status: "signed-out" };
  if (result.status === "signed-in" && result.replacementToken) storeToken(device, result.replacementToken);
  const user = result.status === "signed-in" ? result.user : null;
  updateSessionState({ session: result.status, user, pendingSignInLink, signedInByLink: Boolean(linkToken && !pendingSignInLink && user) });
}

/** When start-up failed before the session was known: nobody is signed in. */
export function settleUnknownSession(): void {
  if (getSessionState().session === "unknown") updateSessionState({ session: "signed-out" });
}

/** After sign-in: keep the token and show the user everywhere at once. */
export function signedIn(token: string, user: UserInfo): void {
  storeToken(device, token);
  updateSessionState({ session: "signed-in", user });
}

/** Sign-out ends the session at the origin and clears every personal view. */
export async function signOut(): Promise<void> {
  const token = currentToken();
  storeToken(device, null);
  updateSessionState({ session: "signed-out", user: null, signedInByLink: false, pendingSignInLink: null });
  if (token) await endSession(token);
}

/**
 * After a money movement: reads the user afresh so the header's balance (and every view
 * of the user) changes without a reload. A failure keeps what is shown.
 */
export async function refreshUser(): Promise<void> {
  const token = currentToken();
  if (!token) return;
  // No answer (a network failure, an HTML error page) is a failure like any other.
  const answer = await postSession(token).then(
    ({ answer }) => answer,
    () => null,
  );
  if (answer?.code === "SUCCESS") {
    updateSessionState({ session: "signed-in", user: answer.data });
  } else if (answer?.code === "UNAUTHENTICATED") {
    // The session ended elsewhere (expired, signed out on another device): sign out here too.
    storeToken(device, null);
    updateSessionState({ session: "signed-out", user: null, signedInByLink: false });
  }
}

/** The person chose the held sign-in link's account: it replaces the one signed in. */
export async function switchToPendingLink(link: string): Promise<void> {
  const result = await fetchSession(link);
  if (result.status !== "signed-in") {
    updateSessionState({ pendingSignInLink: null });
    return;
  }
  storeToken(device, result.replacementToken ?? link);
  updateSessionState({ session: "signed-in", user: result.user, pendingSignInLink: null, signedInByLink: true });
}

export function dismissPendingLink(): void {
  updateSessionState({ pendingSignInLink: null });
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
