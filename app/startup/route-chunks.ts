import { ChunkLoadError, reloadOnceFor } from "./chunk-errors";
import { chunkTimeoutMs } from "./chunk-policy";
import type { KeyValueStore } from "./safe-storage";

type RouteModules = Record<string, unknown>;
type Manifest = { routes: Record<string, { id: string; module: string } | undefined> };

export type RouteChunkOptions = {
  modules: RouteModules;
  manifest: Manifest;
  session: KeyValueStore;
  reload: () => void;
  importModule?: (url: string) => Promise<unknown>;
  timeoutMs?: number;
};

const never = new Promise<never>(() => {});

/**
 * Takes over the loading of route chunks from React Router, whose own loader has no
 * time limit and reloads the page on every failure, with no guard against a loop.
 *
 * React Router returns `modules[routeId]` when the id is present (react-router's
 * `loadRouteModule`), and awaits it. So every route not loaded yet gets a getter that
 * imports its chunk with the 120 s limit: a stale chunk reloads the page once; a second
 * failure or a time-out rejects with a ChunkLoadError, which reaches the route error
 * boundary (the explanation page) and error reporting. test/e2e/chunks.test.ts proves
 * the hook still holds on each React Router upgrade.
 */
export function installRouteChunkLoader({
  modules,
  manifest,
  session,
  reload,
  importModule = (url) => import(/* @vite-ignore */ url),
  timeoutMs = chunkTimeoutMs,
}: RouteChunkOptions): void {
  for (const route of Object.values(manifest.routes)) {
    if (!route || Object.hasOwn(modules, route.id)) continue;
    let loading: Promise<unknown> | null = null;

    const load = () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ChunkLoadError(route.id, route.module, "timeout")), timeoutMs);
      });
      return Promise.race([importModule(route.module), timeout]).then(
        (module) => {
          clearTimeout(timer);
          Object.defineProperty(modules, route.id, { value: module, writable: true, configurable: true, enumerable: true });
          return module;
        },
        (error: unknown) => {
          clearTimeout(timer);
          loading = null;
          if (error instanceof ChunkLoadError) throw error;
          if (reloadOnceFor(route.module, session, reload)) return never;
          throw new ChunkLoadError(route.id, route.module, "error");
        },
      );
    };

    Object.defineProperty(modules, route.id, {
      configurable: true,
      enumerable: false,
      get: () => (loading ??= load()),
    });
  }
}
