/**
 * How the browser's code is cut into files (docs/decisions/029-first-paint-and-first-visit.md).
 * Left to itself, the bundler made some 25 files for a first visit to `/`: React and React
 * Router spread over four, the start-up code and the landing page's helpers over a dozen
 * shared chunks of a few hundred bytes, each its own request and compressed on its own.
 * Here a first visit loads:
 *
 * - `framework`: React, React DOM and React Router, which every page needs whole;
 * - `shell`: what the browser's entry and the root route import statically (start-up,
 *   session, layout, their messages), which every page needs too, and what the landing
 *   page shares with other pages (the personal-screen kit, money formatting). A message
 *   catalogue the landing page shared with one other screen would go there too, and every
 *   page would load it: each screen's catalogue is its own (test/client-build holds this);
 * - `forms`: what draws a form (its fields, the form instance, the submit of a form drawn at
 *   once), which every page with a form needs whole: one file instead of several of a few
 *   hundred bytes (docs/decisions/040-lighter-first-visits.md). The loader of the schema
 *   groups is not in it: `/login` does not need it, and a route that does gets it as a
 *   chunk of its own (docs/decisions/067-form-rules-with-their-form.md);
 * - the route's own chunk and the chunks it shares with other routes, as the bundler cuts them.
 *
 * What a screen shows once someone is signed in, and what runs on a submit, are parts fetched
 * on first use (docs/decisions/043-screens-after-start-up.md), with `form-actions` (the
 * dispatch, the action results, the form messages). So are the groups of the contract's
 * schemas, and `zod`, which they and the signed-out forms' submit build on
 * (docs/decisions/067-form-rules-with-their-form.md): none of it comes with a first visit.
 * zod is one file that all of them share, rather than a copy in each or pieces cut by which
 * of them happen to share them.
 */
import type { Rolldown } from "vite";

type CodeSplittingOptions = Exclude<NonNullable<Rolldown.OutputOptions["codeSplitting"]>, boolean>;
type CodeSplittingGroup = NonNullable<CodeSplittingOptions["groups"]>[number];
type ModuleGraph = Parameters<Extract<CodeSplittingGroup["name"], (...args: never[]) => unknown>>[1];

const framework = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const dependency = /[\\/]node_modules[\\/]/;
const zod = /[\\/]node_modules[\\/]zod[\\/]/;
// React Router's client build names each route module with this query (@react-router/dev).
const routeModule = /\?__react-router-build-client-route$/;
const entry = /[\\/]app[\\/]entry\.client\.tsx$/;
const root = /[\\/]app[\\/]root\.tsx\?__react-router-build-client-route$/;
// The forms' kit; a route imports it, never the entry or the root (they would pull it into the shell).
// What a form needs to be drawn, and what it needs once it is sent: the second comes with the
// parts a screen fetches on first use (docs/decisions/043-screens-after-start-up.md).
const formKit = /[\\/]app[\\/]forms[\\/](fields|use-form-instance|submit-part)\.tsx?$/;
const formActions = /[\\/]app[\\/](forms[\\/](action-result|intent-dispatch)|messages[\\/]forms)\.tsx?$/;
const landing = /[\\/]app[\\/]routes[\\/]home\.tsx\?__react-router-build-client-route$/;

/** The entry and route modules that import a module statically, however indirectly. */
function importingEntries() {
  const known = new Map<string, Set<string>>();
  const entries = (id: string, graph: ModuleGraph): Set<string> => {
    const cached = known.get(id);
    if (cached) return cached;
    const found = new Set<string>();
    known.set(id, found); // an import cycle adds nothing more
    if (entry.test(id) || routeModule.test(id)) found.add(id);
    for (const importer of graph.getModuleInfo(id)?.importers ?? []) for (const e of entries(importer, graph)) found.add(e);
    return found;
  };
  return entries;
}

export function clientChunks(): CodeSplittingOptions {
  const entries = importingEntries();
  const inShell = (id: string, graph: ModuleGraph) => {
    if (dependency.test(id) || routeModule.test(id)) return false;
    const importers = [...entries(id, graph)];
    return importers.some((e) => entry.test(e) || root.test(e)) || (importers.some((e) => landing.test(e)) && importers.length > 1);
  };
  return {
    groups: [
      { name: "framework", test: framework, priority: 2 },
      { name: "zod", test: zod, priority: 2 },
      { name: (id, graph) => (inShell(id, graph) ? "shell" : null), debugName: "shell", priority: 1 },
      { name: "forms", test: formKit, priority: 0 },
      { name: "form-actions", test: formActions, priority: 0 },
    ],
  };
}
