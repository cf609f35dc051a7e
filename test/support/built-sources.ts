import { readFileSync } from "node:fs";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** The source files of a module a build wrote (`file`, relative to `buildDir`), repo-relative, from its source map. */
export function builtSources(buildDir: string, file: string): string[] {
  const map = JSON.parse(readFileSync(path.join(buildDir, `${file}.map`), "utf8")) as { sources: string[] };
  const from = path.dirname(path.join(buildDir, file));
  return map.sources.map((source) => path.relative(repoRoot, path.resolve(from, source)).split(path.sep).join("/"));
}
