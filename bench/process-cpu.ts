/**
 * The CPU time a process and every process below it have run, read from Linux's /proc
 * (each thread's `schedstat`: nanoseconds on a CPU). A server under load is wrangler's
 * Node process and the workerd below it; what they spent per request says what a request
 * cost, beside requests per second, which also says how much of the machine the server
 * got (docs/decisions/033-cpu-per-request.md).
 *
 * Elsewhere than Linux there is no /proc (nor, on a kernel built without scheduler
 * statistics, a `schedstat` to read): the answer is null, and the bench prints no CPU figures.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";

const proc = "/proc";

/** The parent of each running process, read from `/proc/<pid>/stat` (its 4th field). */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`${proc}/${entry}/stat`, "utf8");
      // The command name (2nd field) is in parentheses and may hold spaces: read after it.
      const [, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(entry), Number(ppid));
    } catch {
      // The process ended while being read.
    }
  }
  return parentOf;
}

/** `pid` and every process below it, however deep. */
export function processTree(pid: number, parentOf = parents()): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  return tree;
}

function threadsCpuNs(pid: number): number {
  let ns = 0;
  try {
    for (const thread of readdirSync(`${proc}/${pid}/task`)) {
      ns += Number(readFileSync(`${proc}/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
    }
  } catch {
    // The process (or a thread) ended while being read: what it ran is no longer counted.
  }
  return ns;
}

/** The CPU the given processes have run, in ms; null without /proc or its per-thread counts. */
function cpuMs(pids: number[]): number | null {
  if (!existsSync(`${proc}/self/schedstat`)) return null;
  return pids.reduce((sum, pid) => sum + threadsCpuNs(pid), 0) / 1e6;
}

/**
 * Milliseconds of CPU run so far by `pid` and the processes below it, or null where they
 * cannot be read (no /proc, or no such process). A process that ends takes its count with
 * it: read it around a load, while the server runs.
 */
export function treeCpuMs(pid: number): number | null {
  return existsSync(`${proc}/${pid}/task`) ? cpuMs(processTree(pid)) : null;
}

/** The same for the processes below `pid` only (a probe's workerd, without the probe). */
export function descendantsCpuMs(pid: number): number | null {
  return existsSync(`${proc}/${pid}/task`) ? cpuMs(processTree(pid).slice(1)) : null;
}
