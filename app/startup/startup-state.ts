import { useSyncExternalStore } from "react";
import type { ChunkLoadError, CssChunkLoadError } from "./chunk-errors";
import type { Referrers } from "./referrer";

export type StartupState = {
  /** False on the server and during hydration, so both render the same HTML. */
  ready: boolean;
  isMobile: boolean;
  isShortLinkHost: boolean;
  referrers: Referrers;
  /** A route chunk or stylesheet that failed to load (the page explains it and offers a reload). */
  chunkFailure: ChunkLoadError | CssChunkLoadError | null;
};

const serverStartupState: StartupState = Object.freeze({
  ready: false,
  isMobile: false,
  isShortLinkHost: false,
  referrers: { visit: "", firstTouch: "" },
  chunkFailure: null,
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
 * with the real flags — no hydration mismatch.
 */
export function useStartup(): StartupState {
  return useSyncExternalStore(subscribe, getStartupState, () => serverStartupState);
}
