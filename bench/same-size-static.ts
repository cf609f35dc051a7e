/**
 * The cached page's ceiling: a static file of exactly the page's size, served by the edge's
 * asset server from the snapshot's build/client. Its bytes are the page's own HTML, so that
 * the two answers differ only in who answers (the asset server or the edge worker's cache).
 * wrangler dev serves a file added to the assets directory after it started.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";

/** Writes the file; returns the path to request (the asset server answers `x.html` at `/x`). */
export function writeSameSizeStatic(clientDir: string, page: Buffer): string {
  const name = `bench-static-${page.length}`;
  writeFileSync(path.join(clientDir, `${name}.html`), page);
  return `/${name}`;
}
