import { use, useEffect } from "react";
import { ApiFailure } from "../api/client";
import { ChunkLoadError } from "./chunk-errors";
import { failedModuleUrl, loadChunk, type ChunkPolicy } from "./chunk-loading";
import { reportError } from "./error-reporting";
import { getSessionState } from "../session/session-state";
import { updateStartupState } from "./startup-state";
import { safeStorage } from "../storage/safe-storage";
import { whenIdle } from "./when-idle";

/**
 * Code of a screen that neither its first paint nor its hydration needs: what it shows once
 * someone is signed in, what runs on a submit. It is a chunk of its own, fetched the first
 * time it is needed, so a first visit does not load it
 * (docs/decisions/043-screens-after-start-up.md).
 */
export type Part<M> = {
  /**
   * The part's module, under the chunk policy: a failure reloads the page once; a second is
   * reported, the page explains it as it does for a route's chunk, and this rejects.
   */
  load(): Promise<M>;
  /**
   * Fetches it ahead of its use, or for what may do without it: the module, or null when it
   * could not come (nothing else happens then, and the next use tries again).
   */
  prefetch(): Promise<M | null>;
  /** In a component under <Suspense>: the module, at once when it has arrived. */
  use(): M;
  /**
   * Whether its last fetch failed although the part's own file arrived: what failed is a file
   * it imports (zod), which the browser keeps failing until the page is reloaded, so trying
   * again cannot help (docs/decisions/068-a-part-that-needs-a-reload-says-so.md).
   */
  needsReload(): boolean;
};

const never = new Promise<never>(() => {});

/**
 * A part the page cannot have until it is reloaded (`Part.needsReload`). Refused like a
 * network failure, so a form keeps what was typed and its key, but said as what it is.
 */
export class PartNeedsReload extends ApiFailure {
  constructor() {
    super("ORIGIN_UNAVAILABLE");
    this.name = "PartNeedsReload";
  }
}

function pagePolicy(): ChunkPolicy {
  return {
    session: safeStorage(() => window.sessionStorage),
    reload: () => window.location.reload(),
    // As for a route's chunk (app/startup/run-startup.ts): the page shows the explanation.
    onFailure: (error) => {
      reportError(error);
      updateStartupState({ chunkFailure: error });
    },
  };
}

/** A module fetched afresh at `url` (see `partOnFirstUse`): the bundler cannot know it, so it leaves it alone. */
const importAfresh = (url: string) => import(/* @vite-ignore */ url);

/**
 * Whether the browser received the file at `url` with a 2xx status, by Resource Timing. A
 * browser that does not give a response's status says no: the failure is then taken for the
 * network's, which trying again may mend.
 */
function fileArrived(url: string): boolean {
  if (typeof window === "undefined") return false;
  const href = new URL(url, window.location.href).href;
  return performance.getEntriesByName(href, "resource").some((entry) => {
    const status = (entry as PerformanceResourceTiming).responseStatus ?? 0;
    return status >= 200 && status < 300;
  });
}

/** How a part reaches the browser's modules, and reports what lasts; tests give their own. */
type PartFetching = {
  importUrl?: (url: string) => Promise<unknown>;
  arrived?: (url: string) => boolean;
  report?: (error: Error) => void;
};

export function partOnFirstUse<M>(
  name: string,
  importPart: () => Promise<M>,
  policy: () => ChunkPolicy = pagePolicy,
  { importUrl = importAfresh, arrived = fileArrived, report = reportError }: PartFetching = {},
): Part<M> {
  let module: M | undefined;
  let fetching: Promise<M> | undefined;
  let loading: Promise<M> | undefined;
  let loadFailed = false;
  // Where the first fetch failed, and how often it was tried since.
  let failedAt: string | null = null;
  let retries = 0;
  let needsReload = false;

  // A fetch that failed is not remembered: the next one tries again. A browser may remember
  // the failure of a module's address for the life of the page, as the HTML standard said
  // until whatwg/html#10327 (Debian's Chromium 150 still does): importing it again fails at
  // once. So a retry asks for the address the browser named with a query of its own, which
  // is fetched anew: the same code (chunks are immutable), as a module of its own, which is
  // harmless since nothing evaluated the address that failed
  // (docs/decisions/043-screens-after-start-up.md).
  function fetchPart(): Promise<M> {
    if (!fetching) {
      // The address asked for, where this knows it: a first fetch's comes from the browser's error.
      const retryUrl = failedAt === null ? null : `${failedAt}?retry=${++retries}`;
      const attempt = retryUrl === null ? importPart() : (importUrl(retryUrl) as Promise<M>);
      fetching = attempt;
      attempt.then(
        (imported) => {
          module = imported;
          needsReload = false;
        },
        (error: unknown) => {
          if (fetching === attempt) fetching = undefined;
          const named = failedModuleUrl(error);
          failedAt ??= named;
          // An error that names no address (a module that arrived and threw, say) says nothing
          // of one: the mark stays as it was.
          if (named === null) return;
          const asked = retryUrl ?? named;
          const stuck = arrived(asked);
          // Unlike a failed fetch, this one lasts: the people it happens to are worth knowing of.
          if (stuck && !needsReload) report(new ChunkLoadError(name, asked, "error"));
          needsReload = stuck;
        },
      );
    }
    return fetching;
  }

  function load(): Promise<M> {
    if (module !== undefined) return Promise.resolve(module);
    if (!loading || loadFailed) {
      const attempt = loadChunk({ id: name }, fetchPart, policy());
      loading = attempt;
      loadFailed = false;
      attempt.catch(() => {
        if (loading === attempt) loadFailed = true;
      });
    }
    return loading;
  }

  return {
    load,
    prefetch: () => fetchPart().catch(() => null),
    use() {
      // Arrived before its first render (prefetched, or awaited by a loader): no fallback at all.
      if (module !== undefined) return module;
      // Failed for good: the page shows the explanation instead of its screen (pagePolicy), so
      // this render waits for nothing, as React Router does for a route whose chunk failed.
      return use(loadFailed ? never : (loading ?? load()));
    },
    needsReload: () => needsReload,
  };
}

/**
 * Whether someone may be signed in here: the page found a token when it loaded (the head's
 * token mark, app/startup/token-mark.server.ts), or someone has signed in since. Always
 * false on the server.
 */
export function mayBeSignedIn(): boolean {
  if (typeof document === "undefined") return false;
  return document.documentElement.hasAttribute("data-token") || getSessionState().user !== null;
}

/**
 * A part only someone signed in sees. Made when its route module is evaluated, before
 * hydration: if someone may be signed in, it is fetched at once, beside the session call;
 * on a signed-out visit, not at all.
 */
export function signedInPart<M>(name: string, importPart: () => Promise<M>): Part<M> {
  const part = partOnFirstUse(name, importPart);
  if (mayBeSignedIn()) void part.prefetch();
  return part;
}

/**
 * The `clientLoader` of a screen whose only signed-in content is its part: a navigation
 * there, someone signed in, waits for the part as it waits for the route's chunk, instead
 * of showing the screen with a spinner in it. Its route's `HydrateFallback` is then the page
 * itself, so the server's HTML stays the loading state or the sign-in prompt until start-up
 * has said who is there (docs/decisions/043-screens-after-start-up.md).
 */
export function waitingFor(part: Part<unknown>): () => Promise<null> {
  return async () => {
    if (mayBeSignedIn()) await part.prefetch();
    return null;
  };
}

/** For a form drawn at once: what its submit runs is fetched once the browser is idle, before anyone sends it. */
export function usePrefetchWhenIdle(part: Part<unknown>): void {
  useEffect(() => whenIdle(() => void part.prefetch()), [part]);
}
