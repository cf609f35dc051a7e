/**
 * One cold start of one built worker, for bench/startup.ts: run in a fresh Node process,
 * it reads the worker's wrangler.json, then times from the start of a workerd serving that
 * worker alone (Miniflare, no wrangler in front) to the end of the first answer's body to
 * `<method> <path>` (GET unless named). A worker's service bindings are answered by a stub that says 503, so that
 * only the worker under test is loaded. Prints one line: `STARTUP {json}`, with the CPU
 * time workerd ran by then (bench/process-cpu.ts; null without /proc).
 *
 *   node bench/startup-probe.ts <wrangler.json> "[<method>] <path>" [edge secret]
 *
 * With an edge secret, the worker gets it as EDGE_SECRET and the request presents it: the
 * origin answers only the edge (workers/origin/src/http/edge-trust.ts).
 */
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { builtWorkerOptions } from "../test/support/built-worker.ts";
import { descendantsCpuMs } from "./process-cpu.ts";

const [configPath, request = "/", edgeSecret] = process.argv.slice(2);
if (!configPath) throw new Error('usage: node bench/startup-probe.ts <wrangler.json> "[<method>] <path>"');
const [method, requestPath] = request.includes(" ") ? request.split(" ", 2) : ["GET", request];

const { worker, stubs } = builtWorkerOptions(configPath);

const startedAt = performance.now();
// wrangler describes the worker in Miniflare 4's terms; Miniflare 5 converts them. Nothing is
// persisted: every start is cold.
const mf = new Miniflare(
  convertV4MiniflareOptions({
    workers: [{ ...worker, bindings: { ...worker.bindings, ...(edgeSecret ? { EDGE_SECRET: edgeSecret } : {}) } }, ...stubs],
  }),
);
try {
  const response = await mf.dispatchFetch(`http://localhost${requestPath}`, {
    method,
    headers: { "Accept-Language": "en", ...(edgeSecret ? { "X-Edge-Secret": edgeSecret } : {}) },
  });
  const body = await response.arrayBuffer();
  const ms = performance.now() - startedAt;
  // workerd is this process's only child: its CPU time is the start's work, whatever else
  // the machine was doing meanwhile.
  const cpuMs = descendantsCpuMs(process.pid);
  process.stdout.write(`STARTUP ${JSON.stringify({ ms, cpuMs, status: response.status, bytes: body.byteLength })}\n`);
} finally {
  await mf.dispose();
}
