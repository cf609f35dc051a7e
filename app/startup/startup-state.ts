import { useSyncExternalStore } from "react";
import type { UserInfo } from "#contract/user-info";
import type { ChunkLoadError, CssChunkLoadError } from "./chunk-errors";
import type { Referrers } from "./referrer";

export type SessionStatus = "unknown" | "signed-in" | "signed-out" | "unreachable";

export type StartupState = {
  /** False on the server and during hydration, so both render the same HTML. */
  ready: boolean;
  isMobile: boolean;
  isShortLinkHost: boolean;
  referrers: Referrers;
  session: SessionStatus;
  user: UserInfo | null;
  /** A route chunk or stylesheet that failed to load (the page explains it and offers a reload). */
  chunkFailure: ChunkLoadError | CssChunkLoadError | null;
  /** A sign-in link for another account, held until the person says whether to switch. */
  pendingSignInLink: string | null;
  /** This visit signed in through a link: the page says as whom. */
  signedInByLink: boolean;
};

export const serverStartupState: StartupState = Object.freeze({
  ready: false,
  isMobile: false,
  isShortLinkHost: false,
  referrers: { visit: "", firstTouch: "" },
  session: "unknown",
  user: null,
  chunkFailure: null,
  pendingSignInLink: null,
  signedInByLink: false,
});

let state: StartupState = serverStartupState;
const listeners = new Set<() => void>();

export function getStartupState(): StartupState {
  return state;
}

export function updateStartupState(change: Partial<StartupState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The start-up results for any component. During hydration React uses the server
 * snapshot, so the first client render equals the HTML; right after, it re-renders
 * with the real flags and user — no hydration mismatch.
 */
export function useStartup(): StartupState {
  return useSyncExternalStore(subscribe, getStartupState, () => serverStartupState);
}
