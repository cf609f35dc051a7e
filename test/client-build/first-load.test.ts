/**
 * The browser's build as `wrangler deploy` ships it (`npm test` builds first): what a page's
 * first visit can load. The contract's schemas, and zod with them, are a chunk of their own
 * that a page fetches on first use (docs/decisions/036-form-rules-on-demand.md).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, staticImports } from "../../bench/sizes";

const clientDir = path.resolve(import.meta.dirname, "../../build/client");
const assetsDir = path.join(clientDir, "assets");

// zod's core names each of its classes with a string literal, which minifying keeps.
const zodMarker = "$ZodType";

const source = (asset: string) => readFileSync(path.join(clientDir, asset.replace(/^\//, "")), "utf8");

/** Every chunk these load before running: themselves and what they import statically, however indirectly. */
function staticallyLoaded(start: string[]): Set<string> {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length) {
    const asset = queue.shift()!;
    for (const specifier of staticImports(source(asset))) {
      const imported = new URL(specifier, `https://paydesk.local${asset}`).pathname;
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return seen;
}

describe("the browser's build", () => {
  if (!existsSync(assetsDir)) throw new Error(`${assetsDir} is missing: run \`npm run build\` first`);
  const chunks = readdirSync(assetsDir)
    .filter((name) => name.endsWith(".js"))
    .map((name) => `/assets/${name}`);
  const withZod = chunks.filter((chunk) => source(chunk).includes(zodMarker));

  it("has zod in one chunk, the contract's schemas (app/contract.client.ts)", () => {
    expect(withZod).toHaveLength(1);
    expect(withZod[0]).toMatch(/^\/assets\/contract\.client-[\w-]+\.js$/);
  });

  it("loads no zod with any page's first visit: the entry, every route and what they import statically", () => {
    const manifest = readManifest(clientDir);
    const routes = Object.values(manifest.routes);
    const firstLoads = staticallyLoaded([manifest.entry!.module, ...routes.map((route) => route.module)]);
    expect(routes.length).toBeGreaterThan(20);
    expect([...firstLoads].filter((chunk) => withZod.includes(chunk))).toEqual([]);
    // Reached only by a dynamic import from what pages do load, so it is fetched on first use.
    const schemasFile = path.basename(withZod[0]!);
    const dynamicImport = new RegExp(`import\\(\\s*["'\`]\\./${schemasFile.replace(/[.-]/g, "\\$&")}["'\`]\\s*\\)`);
    const importers = [...firstLoads].filter((chunk) => dynamicImport.test(source(chunk)));
    expect(importers).toHaveLength(1);
  });
});
