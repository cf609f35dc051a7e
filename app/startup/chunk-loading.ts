import { ChunkLoadError, reloadOnceFor } from "./chunk-errors";
import { chunkTimeoutMs } from "./chunk-policy";
import type { KeyValueStore } from "../storage/safe-storage";

/** Where a failed chunk's reload is remembered, how to reload, whom to tell, how long to wait. */
export type ChunkPolicy = {
  session: KeyValueStore;
  reload: () => void;
  /** Told of a chunk that failed for good (the caller reports it and explains it). */
  onFailure?: (error: ChunkLoadError) => void;
  timeoutMs?: number;
};

const never = new Promise<never>(() => {});

/**
 * The address of one of our chunks that a browser names when a dynamic import fails ("…imported
 * module: https://…/assets/x.js"): a script under /assets/ of this page's origin, or null. The
 * address may be imported again (app/startup/on-first-use.ts), so nothing else passes.
 */
export function failedModuleUrl(error: unknown): string | null {
  const message = error instanceof Error ? error.message : "";
  const named = /(?:https?:\/\/|\/assets\/)[^\s'"()]+?\.js(?=$|[\s'"()?#])/.exec(message)?.[0];
  if (!named) return null;
  const page = typeof location === "undefined" ? undefined : location.href;
  let url: URL;
  try {
    url = new URL(named, page);
  } catch {
    return null;
  }
  const ours = page === undefined || url.origin === new URL(page).origin;
  return ours && url.pathname.startsWith("/assets/") ? named : null;
}

/**
 * One chunk's import under the policy of docs/start-up.md ("Chunk loading"): it fails
 * after the time limit; a chunk that fails to load reloads the page once (after a deploy
 * the old chunk is gone, and the new page names the new one); the same chunk failing again,
 * or a time-out, goes to `onFailure` and rejects with a ChunkLoadError. `chunk.url`, when
 * the caller does not know it, is read from the browser's error, or else is the chunk's id.
 */
export function loadChunk<T>(
  chunk: { id: string; url?: string },
  importChunk: () => Promise<T>,
  { session, reload, onFailure = () => {}, timeoutMs = chunkTimeoutMs }: ChunkPolicy,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(chunk.id, chunk.url ?? chunk.id, "timeout")), timeoutMs);
  });
  return Promise.race([importChunk(), timeout]).then(
    (module) => {
      clearTimeout(timer);
      return module;
    },
    (error: unknown) => {
      clearTimeout(timer);
      if (error instanceof ChunkLoadError) {
        onFailure(error);
        throw error;
      }
      const url = chunk.url ?? failedModuleUrl(error) ?? chunk.id;
      if (reloadOnceFor(url, session, reload)) return never;
      const failure = new ChunkLoadError(chunk.id, url, "error");
      onFailure(failure);
      throw failure;
    },
  );
}
