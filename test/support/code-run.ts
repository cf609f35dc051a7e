/**
 * Which source files' code a built worker ran: `node test/support/code-run.ts <main module>
 * <METHOD path>...` imports the module in a fresh Node process, sends it the requests one
 * after another, and prints `CODE-RUN {json}`: each request's status, and for every source
 * file of the build (read from its source maps), whether any of its code ran.
 *
 * It reads V8's block coverage: every byte of the built files gets the count of the
 * innermost block around it, and a source ran when a byte that its source map assigns to
 * it has a count above zero. A module evaluated when its file loads counts as run, whether
 * or not anything it defines was called afterwards. The worker must import nothing that only
 * workerd has (the origin imports no `cloudflare:*` module).
 */
import { existsSync, readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eachMapping, TraceMap } from "@jridgewell/trace-mapping";

type Range = { startOffset: number; endOffset: number; count: number };
type ScriptCoverage = { url: string; functions: Array<{ ranges: Range[] }> };
export type CodeRun = { statuses: number[]; ran: string[]; notRun: string[] };

/** Each byte's count: the innermost range around it wins (V8's ranges nest). */
function countsPerByte(length: number, ranges: Range[]): Int32Array {
  const counts = new Int32Array(length);
  const outermostFirst = [...ranges].sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const { startOffset, endOffset, count } of outermostFirst) counts.fill(count, startOffset, Math.min(endOffset, length));
  return counts;
}

/** For each source of one built file, whether a byte mapped to it ran. */
function sourcesRun(file: string, ranges: Range[], into: Map<string, boolean>): void {
  const code = readFileSync(file, "utf8");
  const counts = countsPerByte(code.length, ranges);
  const lineStarts = [0];
  for (let at = code.indexOf("\n"); at !== -1; at = code.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  const map = new TraceMap(readFileSync(`${file}.map`, "utf8"), pathToFileURL(file).href);
  // A mapping starts a stretch of generated code taken from one source, up to the next mapping.
  const segments: Array<{ offset: number; source: string | null }> = [];
  eachMapping(map, (m) => segments.push({ offset: (lineStarts[m.generatedLine - 1] ?? 0) + m.generatedColumn, source: m.source }));
  segments.sort((a, b) => a.offset - b.offset);
  segments.forEach(({ offset, source }, index) => {
    if (source === null) return;
    const name = path.relative(process.cwd(), fileURLToPath(source)).split(path.sep).join("/");
    const end = segments[index + 1]?.offset ?? code.length;
    let ran = into.get(name) ?? false;
    for (let at = offset; at < end && !ran; at++) ran = (counts[at] ?? 0) > 0;
    into.set(name, ran);
  });
}

async function main() {
  const [mainModule, ...requests] = process.argv.slice(2);
  if (!mainModule || requests.length === 0) throw new Error("usage: code-run.ts <main module> <METHOD path>...");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });

  const worker = (await import(pathToFileURL(path.resolve(mainModule)).href)) as {
    default: { fetch(request: Request, env: object, ctx: object): Promise<Response> };
  };
  const ctx = { waitUntil() {}, passThroughOnException() {} };
  const statuses: number[] = [];
  for (const request of requests) {
    const [method = "GET", requestPath = "/"] = request.split(" ");
    statuses.push((await worker.default.fetch(new Request(`http://origin.test${requestPath}`, { method }), {}, ctx)).status);
  }

  const { result } = (await session.post("Profiler.takePreciseCoverage")) as { result: ScriptCoverage[] };
  const buildDir = path.dirname(path.resolve(mainModule));
  const run = new Map<string, boolean>();
  for (const script of result) {
    if (!script.url.startsWith("file:")) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(buildDir + path.sep) || !existsSync(`${file}.map`)) continue;
    sourcesRun(
      file,
      script.functions.flatMap((fn) => fn.ranges),
      run,
    );
  }
  const answer: CodeRun = {
    statuses,
    ran: [...run].filter(([, ran]) => ran).map(([source]) => source),
    notRun: [...run].filter(([, ran]) => !ran).map(([source]) => source),
  };
  console.log(`CODE-RUN ${JSON.stringify(answer)}`);
}

await main();
