/**
 * Before `npm run bench` builds the anchor: renders Paydesk's /help with the built edge (alone
 * in workerd, as bench/startup-probe.ts starts it), reads the loader data it was rendered
 * from through the edge's route-data endpoint, and writes the page twin the anchor's `/twin`
 * renders (docs/decisions/038-the-anchor-renders-paydesks-page.md).
 *
 *   node bench/capture-page-twin.ts [build/server/wrangler.json]
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { builtWorkerOptions } from "../test/support/built-worker.ts";
import type { TwinPage } from "./page-twin-elements.ts";
import { twinNodes } from "./page-twin.ts";

const twinSource = "/help";
const twinPagePath = path.resolve(import.meta.dirname, "anchor/app/twin/page.json");

const configPath = process.argv[2] ?? "build/server/wrangler.json";
const { worker, stubs } = builtWorkerOptions(configPath);
const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker, ...stubs] }));
try {
  const get = async (url: string) => {
    const answer = await mf.dispatchFetch(`http://localhost${url}`, { headers: { "Accept-Language": "en" } });
    if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
    return answer;
  };
  const html = await (await get(twinSource)).text();
  const loaderData: Record<string, unknown> = {};
  for (const route of ["root", "help"]) {
    loaderData[route] = await (await get(`/__serverLoader?route=${route}&url=${encodeURIComponent(twinSource)}`)).json();
  }
  const twin: TwinPage = { source: twinSource, bytes: Buffer.byteLength(html), ...twinNodes(html), loaderData };
  writeFileSync(twinPagePath, JSON.stringify(twin));
  console.log(`Page twin of ${twinSource} (${twin.bytes} bytes) written to ${path.relative(process.cwd(), twinPagePath)}`);
} finally {
  await mf.dispose();
}
