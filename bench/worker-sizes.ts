/**
 * What each worker uploads: the main module and the chunks it imports statically (the
 * start-up set, evaluated when the worker starts, held to a budget), and beside them the
 * chunks it imports only on demand (a library a rare request loads). workerd compiles every
 * uploaded module when it starts, imported or not (docs/decisions/030-cold-start.md): an
 * on-demand chunk saves its evaluation, not its parsing. Uncompressed bytes, and gzip -9
 * for comparison with what is uploaded.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { staticImports, type FileSize } from "./sizes.ts";

export type WorkerSize = {
  worker: string;
  /** The main module and the chunks it imports statically, through and through. */
  startup: FileSize[];
  startupBytes: number;
  startupGzip: number;
  /** The build's other JavaScript modules: imported with import(), or not at all. */
  onDemand: FileSize[];
  onDemandBytes: number;
};

function sizeOf(dir: string, file: string): FileSize {
  const content = readFileSync(path.join(dir, file));
  return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

/** `dir` holds the worker's `main` module (index.js) and its chunks (assets/*.js). */
export function measureWorker(worker: string, dir: string, main = "index.js"): WorkerSize {
  if (!existsSync(path.join(dir, main))) throw new Error(`${path.join(dir, main)} is missing`);
  const startupFiles = new Set<string>();
  const queue = [main];
  while (queue.length) {
    const file = queue.shift()!;
    if (startupFiles.has(file)) continue;
    startupFiles.add(file);
    for (const specifier of staticImports(readFileSync(path.join(dir, file), "utf8"))) {
      // node:*, cloudflare:*: the runtime's own. The pattern also matches text that reads like
      // an import inside an unminified module's strings: only modules of the build count.
      if (!specifier.startsWith(".")) continue;
      const imported = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (/\.m?js$/.test(imported) && existsSync(path.join(dir, imported))) queue.push(imported);
    }
  }
  const allJs = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => file.split(path.sep).join("/"));
  const startup = [...startupFiles].map((file) => sizeOf(dir, file));
  const onDemand = allJs.filter((file) => !startupFiles.has(file)).map((file) => sizeOf(dir, file));
  const sum = (list: FileSize[], key: "bytes" | "gzip") => list.reduce((n, f) => n + f[key], 0);
  return {
    worker,
    startup,
    startupBytes: sum(startup, "bytes"),
    startupGzip: sum(startup, "gzip"),
    onDemand,
    onDemandBytes: sum(onDemand, "bytes"),
  };
}
