import { useSyncExternalStore } from "react";
import type { UserInfo } from "#contract/user-info";

type SessionStatus = "unknown" | "signed-in" | "signed-out" | "unreachable";

/** Who is signed in on this device, as every screen shows it. */
export type SessionState = {
  session: SessionStatus;
  user: UserInfo | null;
  /** A sign-in link for another account, held until the person says whether to switch. */
  pendingSignInLink: string | null;
  /** This visit signed in through a link: the page says as whom. */
  signedInByLink: boolean;
};

const serverSessionState: SessionState = Object.freeze({
  session: "unknown",
  user: null,
  pendingSignInLink: null,
  signedInByLink: false,
});

let state: SessionState = serverSessionState;
const listeners = new Set<() => void>();

export function getSessionState(): SessionState {
  return state;
}

export function updateSessionState(change: Partial<SessionState>): void {
  state = { ...state, ...change };
  // Scripts and support tooling read the user from window.paydesk: it follows every change.
  if ("user" in change && window.paydesk) window.paydesk.user = state.user;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The signed-in user for any component. During hydration React uses the server snapshot
 * (nobody yet), so the first client render equals the HTML; right after, it re-renders
 * with the user — no hydration mismatch.
 */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSessionState, () => serverSessionState);
}
