/**
 * The committed lock must install with `npm ci` on Linux, macOS and Windows, and every tool
 * must run the same workerd (docs/decisions/009-foundation.md). npm resolves a platform
 * package set only from what the registry offers when the lock is written, so a lock made
 * on Linux can silently lack the macOS or Windows builds: this reads the lock itself.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

type LockedPackage = { version?: string; optionalDependencies?: Record<string, string>; os?: string[] };
const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, LockedPackage>;
};
const locations = Object.keys(lock.packages);

/** Where Node would find `name` from the package at `location` (walking up node_modules). */
function resolveFrom(location: string, name: string): string | undefined {
  let base = location;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

const exactVersion = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

/**
 * Platform sets pin exact versions (workerd 1.2026…, @esbuild/* 0.28.2): a build of another
 * version does not count, as `npm ci` would refuse it. A range is only checked for presence.
 */
function satisfies(location: string | undefined, wanted: string): boolean {
  if (location === undefined) return false;
  return !exactVersion.test(wanted) || lock.packages[location]?.version === wanted;
}

function versionsOf(name: string): string[] {
  const suffix = `node_modules/${name}`;
  const versions = locations.filter((at) => at === suffix || at.endsWith(`/${suffix}`)).map((at) => lock.packages[at]?.version ?? "?");
  return [...new Set(versions)].sort();
}

describe("package-lock.json", () => {
  it("locks every platform build of every optional platform set (workerd, esbuild, rolldown, sharp, biome, …)", () => {
    const missing = locations.flatMap((location) =>
      Object.entries(lock.packages[location]?.optionalDependencies ?? {})
        .filter(([name, wanted]) => !satisfies(resolveFrom(location, name), wanted))
        .map(([name, wanted]) => `${location || "(root)"} → ${name}@${wanted}`),
    );
    expect(missing).toEqual([]);
  });

  it("includes macOS and Windows builds, not only this machine's", () => {
    const platforms = new Set(locations.flatMap((location) => lock.packages[location]?.os ?? []));
    expect([...platforms]).toEqual(expect.arrayContaining(["darwin", "linux", "win32"]));
  });

  it.each(["workerd", "miniflare", "wrangler", "@sentry/core", "react-router", "esbuild", "sharp"])("holds one version of %s", (name) => {
    expect(versionsOf(name)).toHaveLength(1);
  });

  it("keeps every @react-router/* package on react-router's version", () => {
    const [routerVersion] = versionsOf("react-router");
    const family = locations.filter((at) => /(^|\/)node_modules\/@react-router\//.test(at));
    expect(family.length).toBeGreaterThan(0);
    for (const at of family) expect({ at, version: lock.packages[at]?.version }).toEqual({ at, version: routerVersion });
  });
});
