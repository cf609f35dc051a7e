/**
 * The cached page's ceiling: a static file of exactly the page's size, served by the edge's
 * asset server from the snapshot's build/client. Its bytes are the page's own HTML, so that
 * the two answers differ only in who answers (the asset server or the edge worker's cache).
 * wrangler dev serves a file added to the assets directory after it started.
 *
 * Beside it goes the list of headers the edge answered the page with, for the floor worker
 * to answer with (bench/floor/worker.ts): the asset server sends its own few headers with the
 * file, so only the floor stands for "the same answer from any worker".
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { chosenHeaders } from "./page-headers.ts";

export type SameSizeStatic = {
  /** What to request for the file (the asset server answers `x.html` at `/x`). */
  path: string;
  bytes: number;
  /** The asset holding the page's own headers, as `[name, value]` pairs. */
  headersPath: string;
};

/** Writes the file and its page's headers; returns where to request them. */
export function writeSameSizeStatic(clientDir: string, page: Buffer, pageHeaders: Headers): SameSizeStatic {
  const name = `bench-static-${page.length}`;
  writeFileSync(path.join(clientDir, `${name}.html`), page);
  writeFileSync(path.join(clientDir, `${name}.headers.json`), JSON.stringify(chosenHeaders(pageHeaders)));
  return { path: `/${name}`, bytes: page.length, headersPath: `/${name}.headers.json` };
}
