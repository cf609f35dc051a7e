import { ChunkLoadError, reloadOnceFor } from "./chunk-errors";
import { chunkTimeoutMs } from "./chunk-policy";
import type { KeyValueStore } from "../storage/safe-storage";

type RouteModules = Record<string, unknown>;
type Manifest = { routes: Record<string, { id: string; module: string } | undefined> };

export type RouteChunkOptions = {
  modules: RouteModules;
  manifest: Manifest;
  session: KeyValueStore;
  reload: () => void;
  /** Told of a chunk that failed for good (reported and explained by the caller). */
  onFailure?: (error: ChunkLoadError) => void;
  importModule?: (url: string) => Promise<unknown>;
  timeoutMs?: number;
};

const never = new Promise<never>(() => {});

/**
 * React Router's route modules, with their loading taken over. Its own loader has no
 * time limit and reloads the page on every failure, with no guard against a loop.
 *
 * React Router loads a route with `if (id in modules) return modules[id]` before its
 * own `import()` (react-router's `loadRouteModule`), and awaits the answer. So for a
 * route not loaded yet, `id in modules` says yes and the read right after it gets our
 * load: the chunk with the 120 s limit; a stale chunk reloads the page once; a second
 * failure or a time-out is handed to `onFailure` (React Router renders nothing for a
 * route whose component failed to load, so the caller shows the explanation) and
 * rejects with a ChunkLoadError. Every other read sees the
 * route as not loaded, as React Router expects. test/e2e/chunks.test.ts proves the
 * hook still holds after each React Router upgrade.
 */
export function routeModulesWithChunkLoader({
  modules,
  manifest,
  session,
  reload,
  onFailure = () => {},
  importModule = (url) => import(/* @vite-ignore */ url),
  timeoutMs = chunkTimeoutMs,
}: RouteChunkOptions): RouteModules {
  const loading = new Map<string, Promise<unknown>>();
  let askedFor: string | null = null;
  const loadable = (id: string | symbol): id is string =>
    typeof id === "string" && !Object.hasOwn(modules, id) && manifest.routes[id] !== undefined;

  function load(id: string, url: string): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkLoadError(id, url, "timeout")), timeoutMs);
    });
    return Promise.race([importModule(url), timeout]).then(
      (module) => {
        clearTimeout(timer);
        loading.delete(id);
        modules[id] = module;
        return module;
      },
      (error: unknown) => {
        clearTimeout(timer);
        loading.delete(id);
        if (!(error instanceof ChunkLoadError) && reloadOnceFor(url, session, reload)) return never;
        const failure = error instanceof ChunkLoadError ? error : new ChunkLoadError(id, url, "error");
        onFailure(failure);
        throw failure;
      },
    );
  }

  return new Proxy(modules, {
    has(target, id) {
      if (!loadable(id)) return Reflect.has(target, id);
      askedFor = id;
      return true;
    },
    get(target, id, receiver) {
      if (id !== askedFor || !loadable(id)) return Reflect.get(target, id, receiver);
      askedFor = null;
      const route = manifest.routes[id];
      if (!route) return undefined;
      let pending = loading.get(id);
      if (!pending) {
        pending = load(id, route.module);
        loading.set(id, pending);
      }
      return pending;
    },
  });
}
