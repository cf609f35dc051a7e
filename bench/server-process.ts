/**
 * A bench and the server child it starts (bench/serve.ts, bench/origin-serve.ts), both
 * ends of the line protocol between them:
 *
 *   child stdout: `READY {json}` once it serves (what the bench needs to know: URLs,
 *                 tokens…), `REPLY {json}` for each command; any other line is a log line.
 *   child stdin:  one command per line, `{"id":1,"cmd":"stats"}`; its end means the bench
 *                 went away, and the child stops.
 *
 * The child runs in its own process group, because workerd runs three levels below it
 * (child → wrangler's launcher → wrangler → workerd): stopping the group is the only way
 * to be sure none is left serving.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fstatSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";

const READY = "READY ";
const REPLY = "REPLY ";
/** The child migrates and seeds its D1s with wrangler (each call starts a workerd) before `wrangler dev` starts. */
const START_TIMEOUT_MS = 150_000;

type Reply = { id: number; ok: boolean; data?: unknown; error?: string };

/** The bench's end: the server child, from its start to its stop. */
export class ServerProcess<Info> {
  /** What the child reported with READY. */
  readonly ready: Promise<Info>;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  private readonly pending = new Map<number, { resolve: (data: unknown) => void; reject: (error: Error) => void }>();
  private nextCommandId = 1;

  constructor(script: string, args: string[], cwd: string) {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      detached: true, // its own process group, workerd included: killed as a group
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", (code, signal) => {
      for (const [id, pending] of this.pending) {
        pending.reject(new Error(`the server exited (code ${code}, signal ${signal})`));
        this.pending.delete(id);
      }
    });
    // A command written after the child died fails here; the exit above has answered it.
    child.stdin!.on("error", () => {});
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not report READY within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout! });
      lines.on("line", (line) => {
        if (line.startsWith(READY)) {
          clearTimeout(timer);
          resolve(JSON.parse(line.slice(READY.length)) as Info);
        } else if (line.startsWith(REPLY)) {
          this.answer(JSON.parse(line.slice(REPLY.length)) as Reply);
        } else if (line.trim()) {
          console.log(`[server] ${line}`);
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited before it was ready (code ${code}, signal ${signal})`));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  private get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  private answer(reply: Reply): void {
    const pending = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (reply.ok) pending?.resolve(reply.data);
    else pending?.reject(new Error(reply.error ?? "the server's command failed"));
  }

  /** Sends a command; resolves with the child's answer. */
  command<T>(cmd: string, timeoutMs = 15_000): Promise<T> {
    const stdin = this.child.stdin;
    if (!this.running || !stdin?.writable) return Promise.reject(new Error("the server is not running"));
    const id = this.nextCommandId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the server did not answer "${cmd}" within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (data) => {
          clearTimeout(timer);
          resolve(data as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      stdin.write(`${JSON.stringify({ id, cmd })}\n`);
    });
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (!this.child.pid) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // no process left in the group
    }
  }

  /** SIGTERM (wrangler stops its workerd, the child removes its state), then SIGKILL for whatever the group still holds. */
  async stop(): Promise<void> {
    if (this.running) this.signalGroup("SIGTERM");
    const exited = await Promise.race([this.exited.then(() => true), sleep(5_000).then(() => false)]);
    // The group may hold workerd even after the child exited.
    this.signalGroup("SIGKILL");
    if (!exited) await Promise.race([this.exited, sleep(2_000)]);
    this.child.stdin?.destroy();
  }

  /** For process exit, when nothing can be awaited any more. */
  kill(): void {
    this.signalGroup("SIGKILL");
  }
}

/** The directory a bench server serves: the copy of the build its bench made (argv[2]), else this checkout. */
export const servedRoot = () => path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));

/**
 * The child's end: stops (through `dispose`) on SIGTERM/SIGINT or when the bench goes
 * away, and answers commands once ready. `label` names the child in its error messages.
 */
export function serveBench(
  label: string,
  dispose: () => Promise<unknown>,
): {
  ready(info: unknown, commands?: (cmd: string) => Promise<unknown>): void;
  failed(error: unknown): void;
} {
  let disposing = false;
  const shutdown = (code: number) => {
    if (disposing) return;
    disposing = true;
    void dispose()
      .catch(() => {})
      .finally(() => process.exit(code));
  };
  process.on("SIGTERM", () => shutdown(0));
  process.on("SIGINT", () => shutdown(0));

  let commands: ((cmd: string) => Promise<unknown>) | null = null;
  // Started by a bench, stdin is a pipe from it (a socket pair, as Node spawns it); run by
  // hand, it is a terminal or a file, and neither its lines nor its end mean anything.
  const stdin = fstatSync(0);
  if (stdin.isFIFO() || stdin.isSocket()) {
    const lines = createInterface({ input: process.stdin });
    lines.on("line", (line) => {
      if (!line.trim()) return;
      let id: unknown = null;
      void (async () => {
        const command = JSON.parse(line) as { id: unknown; cmd: string };
        id = command.id;
        if (!commands) throw new Error(`unknown command ${command.cmd}`);
        return commands(command.cmd);
      })().then(
        (data) => process.stdout.write(`${REPLY}${JSON.stringify({ id, ok: true, data })}\n`),
        (error: unknown) => process.stdout.write(`${REPLY}${JSON.stringify({ id, ok: false, error: String(error) })}\n`),
      );
    });
    lines.on("close", () => shutdown(0));
    process.stdin.on("error", () => shutdown(0));
  }

  return {
    ready(info, answer) {
      commands = answer ?? null;
      process.stdout.write(`${READY}${JSON.stringify(info)}\n`);
    },
    failed(error) {
      console.error(`[${label}] failed to start:`, error);
      shutdown(1);
    },
  };
}
