/**
 * A built worker (the wrangler.json its build wrote) as Miniflare options, to run it alone in
 * workerd, with no wrangler in front: wrangler's reading of the config; every module the build
 * wrote, listed one by one as a deploy uploads them (wrangler's module rules have no Miniflare 5
 * form; workerd evaluates only what is imported); and, for each service it binds, a stub that
 * answers 503. Pass the result to `convertV4MiniflareOptions`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { V4WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

export function builtWorkerOptions(configPath: string): { worker: V4WorkerOptions; stubs: V4WorkerOptions[] } {
  const config = JSON.parse(readFileSync(configPath, "utf8")) as { name: string; services?: { service: string }[] };
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(configPath);
  const { modulesRules: _rules, rootPath: _root, ...options } = workerOptions as V4WorkerOptions;
  if (!main) throw new Error(`${configPath} names no main module`);
  const root = path.dirname(main);
  const modules = [main, ...readdirSync(root, { recursive: true, encoding: "utf8" }).map((file) => path.join(root, file))]
    .filter((file, index, all) => /\.m?js$/.test(file) && all.indexOf(file) === index)
    .map((file) => ({ type: "ESModule" as const, path: file }));
  const stubs: V4WorkerOptions[] = [...new Set((config.services ?? []).map((s) => s.service))].map((name) => ({
    name,
    modules: true,
    script: "export default { fetch() { return new Response('stub', { status: 503 }); } };",
    compatibilityDate: options.compatibilityDate,
  }));
  return { worker: { ...options, name: config.name, modules, modulesRoot: root }, stubs };
}
