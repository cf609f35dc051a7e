/**
 * The lifetime of one bench run. Whichever way the run ends — done, failed, stopped by
 * its watchdog, interrupted — the loads stop, the server's process group is stopped and
 * the private copy of the build removed: no workerd is left serving, no copy left behind.
 */
import path from "node:path";
import { stopLoads } from "./load.ts";
import { ServerProcess } from "./server-process.ts";
import { snapshotBuild, type SnapshotSpec } from "./snapshot.ts";

export const repoRoot = path.resolve(import.meta.dirname, "..");

/** What a run has started that must not outlive it. */
export class BenchRun {
  private server: ServerProcess<unknown> | null = null;
  private removeCopy = () => {};
  private readonly held = new Set<() => void>();

  /** Something else the run started (a browser): `kill` is called if the run ends first; the answer releases it. */
  holdWhileRunning(kill: () => void): () => void {
    this.held.add(kill);
    return () => this.held.delete(kill);
  }

  private killHeld(): void {
    for (const kill of this.held) {
      try {
        kill();
      } catch {
        // already gone
      }
    }
    this.held.clear();
  }

  /** Takes the private copy of the build to serve and measure; returns its directory. */
  async snapshot(spec: SnapshotSpec): Promise<string> {
    const copy = await snapshotBuild(repoRoot, spec);
    this.removeCopy = copy.remove;
    return copy.dir;
  }

  removeSnapshot(): void {
    this.removeCopy();
  }

  /** Starts `script` (relative to the repository) as the server child, given `args`. */
  startServer<Info>(script: string, args: string[]): ServerProcess<Info> {
    const server = new ServerProcess<Info>(path.join(repoRoot, script), args, repoRoot);
    this.server = server;
    return server;
  }

  async stopServer(): Promise<void> {
    stopLoads();
    this.killHeld();
    if (!this.server) return;
    await this.server.stop();
    this.server = null;
  }

  /** On process exit, when nothing can be awaited any more. */
  cleanUpNow(): void {
    this.killHeld();
    this.server?.kill();
    this.removeCopy();
  }
}

/**
 * Runs `main` as the bench's whole life: its return value is the exit status; a throw
 * fails the bench with status 1, the watchdog after `watchdogMs` too; a signal, 130.
 */
export function runBench(watchdogMs: number, main: (run: BenchRun) => Promise<number>): void {
  const run = new BenchRun();
  process.on("exit", () => run.cleanUpNow());
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the server…`);
      void run.stopServer().finally(() => process.exit(130));
    });
  }
  const watchdog = setTimeout(() => {
    console.error(`\nThe bench did not finish within ${watchdogMs / 1000} s: stopping.`);
    void run.stopServer().finally(() => process.exit(1));
  }, watchdogMs);
  watchdog.unref();

  main(run)
    .then((code) => {
      process.exitCode = code;
    })
    .catch(async (error: unknown) => {
      console.error("\nThe bench failed:", error instanceof Error ? error.message : error);
      await run.stopServer();
      run.removeSnapshot();
      process.exitCode = 1;
    })
    .finally(() => clearTimeout(watchdog));
}
