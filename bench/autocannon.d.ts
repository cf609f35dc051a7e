// The slice of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  };

  export type Options = {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    maxOverallRequests?: number;
    timeout?: number;
    requests?: Request[];
  };

  export type Result = {
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
  };

  export type Instance = EventEmitter & { stop(): void };

  export default function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
}
