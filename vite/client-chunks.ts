/**
 * How the browser's code is cut into files (docs/decisions/023-speed.md). Left to itself,
 * the bundler made some 25 files for a first visit to `/`: React and React Router spread
 * over four, and the start-up code over a dozen shared chunks of a few hundred bytes, each
 * its own request and each compressed on its own. Here every first visit loads:
 *
 * - `framework`: React, React DOM and React Router, which every page needs whole;
 * - `shell`: what the browser's entry and the root route import statically (start-up,
 *   session, layout, their messages), which every page needs too;
 * - the route's own chunk and the chunks it shares with other routes, as the bundler cuts them.
 */
import type { Rolldown } from "vite";

type CodeSplittingOptions = Exclude<NonNullable<Rolldown.OutputOptions["codeSplitting"]>, boolean>;
type CodeSplittingGroup = NonNullable<CodeSplittingOptions["groups"]>[number];

type ModuleGraph = Parameters<Extract<CodeSplittingGroup["name"], (...args: never[]) => unknown>>[1];

const framework = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const dependency = /[\\/]node_modules[\\/]/;
// React Router's client build names each route module with this query (@react-router/dev).
const startModules = [/[\\/]app[\\/]entry\.client\.tsx$/, /[\\/]app[\\/]root\.tsx\?__react-router-build-client-route$/];

/** Whether a module is imported statically, however indirectly, by the entry or the root route. */
function shellMembership() {
  const known = new Map<string, boolean>();
  const inShell = (id: string, graph: ModuleGraph): boolean => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    known.set(id, false); // an import cycle does not prove membership
    const result =
      startModules.some((start) => start.test(id)) ||
      (graph.getModuleInfo(id)?.importers ?? []).some((importer) => inShell(importer, graph));
    known.set(id, result);
    return result;
  };
  return inShell;
}

export function clientChunks(): CodeSplittingOptions {
  const inShell = shellMembership();
  return {
    groups: [
      { name: "framework", test: framework, priority: 2 },
      { name: (id, graph) => (!dependency.test(id) && inShell(id, graph) ? "shell" : null), priority: 1 },
    ],
  };
}
