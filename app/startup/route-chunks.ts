import { loadChunk, type ChunkPolicy } from "./chunk-loading";

type RouteModules = Record<string, unknown>;
type Manifest = { routes: Record<string, { id: string; module: string } | undefined> };

export type RouteChunkOptions = ChunkPolicy & {
  modules: RouteModules;
  manifest: Manifest;
  importModule?: (url: string) => Promise<unknown>;
};

/**
 * React Router's route modules, with their loading taken over. Its own loader has no
 * time limit and reloads the page on every failure, with no guard against a loop.
 *
 * React Router loads a route with `if (id in modules) return modules[id]` before its
 * own `import()` (react-router's `loadRouteModule`), and awaits the answer. So for a
 * route not loaded yet, `id in modules` says yes and the read right after it gets our
 * load, under the chunk policy (`loadChunk`): React Router renders nothing for a route
 * whose component failed to load, so `onFailure`'s caller shows the explanation. Every
 * other read sees the route as not loaded, as React Router expects.
 * test/e2e/chunks.test.ts proves the hook still holds after each React Router upgrade.
 */
export function routeModulesWithChunkLoader({
  modules,
  manifest,
  importModule = (url) => import(/* @vite-ignore */ url),
  ...policy
}: RouteChunkOptions): RouteModules {
  const loading = new Map<string, Promise<unknown>>();
  let askedFor: string | null = null;
  const loadable = (id: string | symbol): id is string =>
    typeof id === "string" && !Object.hasOwn(modules, id) && manifest.routes[id] !== undefined;

  function load(id: string, url: string): Promise<unknown> {
    return loadChunk({ id, url }, () => importModule(url), policy)
      .then((module) => {
        modules[id] = module;
        return module;
      })
      .finally(() => loading.delete(id));
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
