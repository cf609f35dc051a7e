import { reloadedForKey } from "./chunk-policy";
import type { KeyValueStore } from "../storage/safe-storage";

/**
 * The two chunk-loading failures of docs/start-up.md, named as the original app's
 * bundler named them so reports stay comparable.
 */
export class ChunkLoadError extends Error {
  override name = "ChunkLoadError";
  readonly code = "CHUNK_LOAD_FAILED";
  constructor(
    readonly chunk: string,
    readonly url: string,
    readonly reason: "timeout" | "error",
  ) {
    super(`Loading chunk ${chunk} failed.\n(${reason}: ${url})`);
  }
}

export class CssChunkLoadError extends Error {
  override name = "CssChunkLoadError";
  readonly code = "CSS_CHUNK_LOAD_FAILED";
  constructor(readonly url: string) {
    super(`Loading CSS chunk failed.\n(${url})`);
  }
}

export function isChunkError(error: unknown): error is ChunkLoadError | CssChunkLoadError {
  return error instanceof ChunkLoadError || error instanceof CssChunkLoadError;
}

/**
 * After a deploy, an open tab asks for chunks that no longer exist; reloading once
 * fetches the new page. The asset's URL is remembered, so the same failing asset
 * never triggers a second reload: that would be a loop.
 */
export function reloadOnceFor(url: string, session: KeyValueStore, reload: () => void): boolean {
  if (session.get(reloadedForKey) === url) return false;
  session.set(reloadedForKey, url);
  reload();
  return true;
}
