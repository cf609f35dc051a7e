/**
 * Builds the bench's anchor twice, after `npm run build` (docs/decisions/038-the-anchor-renders-paydesks-page.md):
 *
 *   1. renders Paydesk's /help with the built edge (alone in workerd, as bench/startup-probe.ts
 *      starts it), reads the loader data it was rendered from through the edge's route-data
 *      endpoint, and writes the page twin (bench/page-twin.ts), with the headers the edge
 *      answered it with, to bench/anchor/app/twin/page.json;
 *   2. builds the anchor with its `/twin` route, which renders that page, into bench/anchor/build-twin;
 *   3. builds the bare anchor, its one page only, into bench/anchor/build: what the targets
 *      compare with (its start-up, size, render and LCP).
 *
 *   node bench/build-anchors.ts
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { builtWorkerOptions } from "../test/support/built-worker.ts";
import { chosenHeaders } from "./page-headers.ts";
import type { TwinPage } from "./page-twin-elements.ts";
import { twinNodes } from "./page-twin.ts";

const twinSource = "/help";
const anchorDir = path.resolve(import.meta.dirname, "anchor");
// The CLI `react-router` runs, beside the package manifest (the package exports no path to it).
const reactRouterCli = path.join(path.dirname(createRequire(import.meta.url).resolve("@react-router/dev/package.json")), "bin.cjs");

async function capturePageTwin(): Promise<void> {
  const { worker, stubs } = builtWorkerOptions("build/server/wrangler.json");
  const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker, ...stubs] }));
  try {
    const get = async (url: string) => {
      const answer = await mf.dispatchFetch(`http://localhost${url}`, { headers: { "Accept-Language": "en" } });
      if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
      return answer;
    };
    const page = await get(twinSource);
    const html = await page.text();
    const loaderData: Record<string, unknown> = {};
    for (const route of ["root", "help"]) {
      loaderData[route] = await (await get(`/__serverLoader?route=${route}&url=${encodeURIComponent(twinSource)}`)).json();
    }
    const twin: TwinPage = {
      source: twinSource,
      bytes: Buffer.byteLength(html),
      headers: chosenHeaders(page.headers),
      ...twinNodes(html),
      loaderData,
    };
    // Generated, and ignored by git: a clean clone has no such directory yet.
    mkdirSync(path.join(anchorDir, "app/twin"), { recursive: true });
    writeFileSync(path.join(anchorDir, "app/twin/page.json"), JSON.stringify(twin));
    console.log(`Page twin of ${twinSource} (${twin.bytes} bytes) captured`);
  } finally {
    await mf.dispose();
  }
}

function buildAnchor(withTwin: boolean): void {
  const env = { ...process.env, BENCH_PAGE_TWIN: withTwin ? "1" : "" };
  execFileSync(process.execPath, [reactRouterCli, "build", anchorDir], { stdio: "inherit", env });
}

await capturePageTwin();
buildAnchor(true);
rmSync(path.join(anchorDir, "build-twin"), { recursive: true, force: true });
renameSync(path.join(anchorDir, "build"), path.join(anchorDir, "build-twin"));
buildAnchor(false);
