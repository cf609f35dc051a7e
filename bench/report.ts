/**
 * What the benches print and write in common: the scenario table, target marks, the
 * machine's load (the numbers only compare between runs on a quiet machine) and the
 * results file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { repoRoot } from "./harness.ts";
import { loadSettings, type LoadResult } from "./load.ts";
import type { ScenarioResult } from "./scenario.ts";

export const pad = (text: string, width: number) => text.padEnd(width);
export const padLeft = (text: string, width: number) => text.padStart(width);

export type Column<Result> = { title: string; width: number; value: (result: Result) => string };

/** The columns every scenario table has. */
export const columns = {
  rps: { title: "req/s", width: 8, value: (r) => r.rps.toFixed(0) },
  p50: { title: "p50 ms", width: 8, value: (r) => r.latencyMs.p50.toFixed(2) },
  p99: { title: "p99 ms", width: 8, value: (r) => r.latencyMs.p99.toFixed(2) },
  non2xx: { title: "non-2xx", width: 8, value: (r) => String(r.non2xx) },
  errors: { title: "errors", width: 7, value: (r) => String(r.errors) },
} satisfies Record<string, Column<LoadResult>>;

/** A row a scenario; `flags` follows a measured row, a scenario not measured says why instead. */
export function printScenarioTable<Key extends string, Result extends LoadResult>(
  results: ScenarioResult<Key, Result>[],
  labelWidth: number,
  tableColumns: Column<Result>[],
  flags: (s: ScenarioResult<Key, Result>, result: Result) => string,
): void {
  const header = `${pad("scenario", labelWidth)} ${tableColumns.map((c) => padLeft(c.title, c.width)).join(" ")}`;
  console.log(header);
  console.log("-".repeat(header.length));
  for (const s of results) {
    const r = s.result;
    if (!r) {
      console.log(`${pad(s.label, labelWidth)} ${padLeft("—", 8)}  not measured: ${s.error ?? s.checkBefore.detail}`);
      continue;
    }
    console.log(`${pad(s.label, labelWidth)} ${tableColumns.map((c) => padLeft(c.value(r), c.width)).join(" ")}${flags(s, r)}`);
  }
}

/** `met: null` when the figures it needs were not measured. */
export type TargetResult = { name: string; target: string; actual: string; met: boolean | null };

export const targetMark = (t: TargetResult) => (t.met === null ? "n/a" : t.met ? "met" : "NOT met");

/** The 1-minute load average. */
export const loadAverage = () => loadavg()[0]!;

/** The machine before the run; warns when it is busy. */
export function noteMachineLoad(): { cpus: number; loadBefore: number } {
  const loadBefore = loadAverage();
  const cpus = availableParallelism();
  if (loadBefore > cpus * 0.5) {
    console.warn(
      `Note: the machine is busy (1-min load average ${loadBefore.toFixed(2)} on ${cpus} CPUs); throughput and latency will be lower than on a quiet machine.`,
    );
  }
  return { cpus, loadBefore };
}

/** Writes `file` (relative to the repository): when and where the run ran, how it loaded, then `rest`. */
export function writeResults(
  file: string,
  startedAt: Date,
  machine: { cpus: number; loadAverage1mBefore: number; loadAverage1mAfter: number },
  rest: Record<string, unknown>,
): void {
  const absolute = path.join(repoRoot, file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    node: process.version,
    machine,
    load: loadSettings,
    ...rest,
  };
  writeFileSync(absolute, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nResults written to ${file}`);
}
