/**
 * autocannon loads, as every bench runs them: the same settings (so that the benches'
 * numbers compare), and each load's latencies recorded from its `response` events at full
 * resolution — autocannon's own histogram rounds to whole milliseconds, too coarse for a
 * worker answering on loopback.
 */
import autocannon, { type Request as AutocannonRequest, type Result as AutocannonResult } from "autocannon";
import { credentialFor } from "./http.ts";

/** A whole number from the environment (for quick runs), within bounds. */
function setting(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}
export const CONNECTIONS = setting("BENCH_CONNECTIONS", 10, 1, 100);
export const DURATION_S = setting("BENCH_DURATION_S", 8, 1, 30);
export const WARMUP_S = setting("BENCH_WARMUP_S", 2, 0, 10);

/** How the loads ran, as the results files record it. */
export const loadSettings = { tool: "autocannon", connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S, pipelining: 1 };
/** How the loads ran, as the reports' table titles say it. */
export const loadDescription = `autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up`;

export type LoadContext = Record<string, unknown>;

export type LoadSpec = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sets up each request (a new path, a fresh key, another user); may note things in the context. */
  setupRequest?: (request: AutocannonRequest, context: LoadContext) => AutocannonRequest;
  /** Sees each answer, with the context its request was set up with. */
  onResponse?: (status: number, body: string, context: LoadContext) => void;
};

export type LoadResult = {
  requests: number;
  elapsedS: number;
  bytesPerResponse: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * Milliseconds of CPU the serving processes (wrangler and its workerd) ran per request
   * during the load, when the bench knows them (bench/process-cpu.ts).
   */
  serverCpuMsPerRequest?: number;
  /** autocannon's own (millisecond) figures, to compare with. */
  autocannon: { rpsAverage: number; p50: number; p99: number };
};

const activeLoads = new Set<{ stop(): void }>();

/** Stops every load under way: a bench that is stopping must not keep loading a dying server. */
export function stopLoads(): void {
  for (const running of activeLoads) running.stop();
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** One load of `durationS` seconds (and at most `maxRequests` requests) against `baseUrl`. */
export function load(baseUrl: string, spec: LoadSpec, durationS: number, maxRequests: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let bytes = 0;
    const statusCodes: Record<string, number> = {};
    let started = performance.now();
    const requestOptions: AutocannonRequest & { onResponse?: LoadSpec["onResponse"] } = { method: spec.method, path: spec.path };
    // Only when given: a key set to undefined overrides autocannon's default for it.
    const credential = credentialFor(baseUrl);
    if (spec.headers || Object.keys(credential).length > 0) requestOptions.headers = { ...spec.headers, ...credential };
    if (spec.body !== undefined) requestOptions.body = spec.body;
    if (spec.setupRequest) requestOptions.setupRequest = spec.setupRequest;
    // autocannon calls onResponse(status, body, context, headers) for each answer.
    if (spec.onResponse) requestOptions.onResponse = spec.onResponse;
    const instance = autocannon(
      {
        url: baseUrl,
        connections: CONNECTIONS,
        pipelining: 1,
        duration: durationS,
        maxOverallRequests: maxRequests,
        timeout: 10,
        requests: [requestOptions],
      },
      (error, result: AutocannonResult) => {
        clearTimeout(hardStop);
        activeLoads.delete(instance);
        if (error) return reject(error);
        const elapsedS = (performance.now() - started) / 1000;
        const sorted = Float64Array.from(latencies).sort();
        const non2xx = Object.entries(statusCodes)
          .filter(([code]) => !code.startsWith("2"))
          .reduce((n, [, count]) => n + count, 0);
        resolve({
          requests: sorted.length,
          elapsedS,
          bytesPerResponse: Math.round(bytes / (sorted.length || 1)),
          rps: sorted.length / elapsedS,
          latencyMs: {
            mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
            p50: percentile(sorted, 50),
            p90: percentile(sorted, 90),
            p99: percentile(sorted, 99),
            max: percentile(sorted, 100),
          },
          statusCodes,
          non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          autocannon: { rpsAverage: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 },
        });
      },
    );
    activeLoads.add(instance);
    instance.on("start", () => {
      started = performance.now();
    });
    instance.on("response", (_client: unknown, statusCode: number, responseBytes: number, responseTimeMs: number) => {
      latencies.push(responseTimeMs);
      bytes += responseBytes;
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
    // Never let one load outlive its duration by much.
    const hardStop = setTimeout(() => instance.stop(), (durationS + 15) * 1000);
  });
}
