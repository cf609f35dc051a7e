/**
 * Each worker's cold start, measured the same way for all: bench/startup-probe.ts in a
 * fresh Node process times a workerd serving that worker alone, from its start to the end
 * of the first answer. The workers take turns (anchor, edge, origin, anchor, …), so that a
 * burst of load on the machine falls on all of them alike; the median of the runs counts.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { repoRoot } from "./harness.ts";

// Nine, not five: starts of one build spread over 100 ms and more on two busy cores, and the
// median of five moved by half a target (20 ms) from one run to the next.
export const STARTS_PER_WORKER = 9;
const PROBE_TIMEOUT_MS = 60_000;

export type StartupTarget = {
  worker: string;
  config: string;
  /** GET unless named. */
  method?: "GET" | "POST";
  path: string;
  presentsEdgeSecret?: boolean;
  /** The worker whose configuration floor this is (bench/startup-floor.ts). */
  floorOf?: string;
};
export type Startup = {
  worker: string;
  floorOf?: string;
  method: string;
  path: string;
  runsMs: number[];
  medianMs: number | null;
  /** The least disturbed start: on a busy machine, the steadiest figure beside the median. */
  minMs: number | null;
  /** CPU time workerd ran in each start (null without /proc): what the start cost, not what it waited for. */
  cpuRunsMs: number[];
  cpuMedianMs: number | null;
  statuses: number[];
  error?: string;
};

type ProbeAnswer = { ms: number; cpuMs: number | null; status: number };

function probe(target: StartupTarget): Promise<ProbeAnswer> {
  const args = [path.join(repoRoot, "bench/startup-probe.ts"), target.config, `${target.method ?? "GET"} ${target.path}`];
  if (target.presentsEdgeSecret) args.push(randomBytes(32).toString("base64url"));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], timeout: PROBE_TIMEOUT_MS });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      const line = out.split("\n").find((l) => l.startsWith("STARTUP "));
      if (code === 0 && line) return resolve(JSON.parse(line.slice("STARTUP ".length)) as ProbeAnswer);
      reject(
        new Error(`the probe of ${target.worker} ended (code ${code}, signal ${signal}): ${err.trim().split("\n").slice(-3).join(" ")}`),
      );
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function measureStartups(targets: StartupTarget[]): Promise<Startup[]> {
  const results: Startup[] = targets.map((t) => ({
    worker: t.worker,
    ...(t.floorOf ? { floorOf: t.floorOf } : {}),
    method: t.method ?? "GET",
    path: t.path,
    runsMs: [],
    medianMs: null,
    minMs: null,
    cpuRunsMs: [],
    cpuMedianMs: null,
    statuses: [],
  }));
  for (let round = 1; round <= STARTS_PER_WORKER; round++) {
    for (const [index, target] of targets.entries()) {
      const result = results[index]!;
      if (result.error) continue;
      try {
        const { ms, cpuMs, status } = await probe(target);
        result.runsMs.push(ms);
        if (cpuMs !== null) result.cpuRunsMs.push(cpuMs);
        result.statuses.push(status);
      } catch (error) {
        result.error = error instanceof Error ? error.message : String(error);
        console.error(`  ✗ start-up of ${target.worker}: ${result.error}`);
      }
    }
  }
  for (const result of results) {
    if (!result.error && result.runsMs.length) {
      result.medianMs = median(result.runsMs);
      result.minMs = Math.min(...result.runsMs);
      if (result.cpuRunsMs.length) result.cpuMedianMs = median(result.cpuRunsMs);
    }
    if (result.medianMs !== null)
      console.log(`  ${result.worker}: median ${result.medianMs.toFixed(0)} ms (${result.runsMs.map((ms) => ms.toFixed(0)).join(", ")})`);
  }
  return results;
}
