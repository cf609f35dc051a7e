/**
 * `wrangler dev` as the bench servers and the contract test run it: the built configs as
 * they are (as test/e2e/serve.ts serves them), on a free loopback port, with a local state
 * directory of the server's own. A bench server starts it in its own process group, so that
 * the bench stopping the group stops wrangler and its workerd too.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { wranglerBin, wranglerEnv } from "./local-d1.ts";

/** Polls `url` until it answers with an accepted status (by default 200); `headers` go with each poll. */
export async function waitUntilServing(
  url: string,
  timeoutMs: number,
  accept?: (status: number) => boolean,
  headers: Record<string, string> = {},
): Promise<void> {
  const accepted = accept ?? ((status: number) => status === 200);
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (accepted(response.status)) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer ${accept ? "as expected" : "200"} within ${timeoutMs} ms (${last})`);
}

export type WranglerDev = {
  url: string;
  /** wrangler's process: workerd runs below it (the bench reads their CPU time, bench/process-cpu.ts). */
  pid: number | undefined;
  /** Resolves once the worker answers HTTP; rejects when wrangler exits first or is too slow. */
  ready: Promise<void>;
  stop(): Promise<void>;
};

/** wrangler dev compiles nothing here (the build is no_bundle) but starts two workerd: allow it time on 2 cores. */
const START_TIMEOUT_MS = 90_000;

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no loopback port");
  return address.port;
}

export type WranglerDevOptions = {
  /** With several, wrangler serves the first worker on the port and binds the others to it in-process. */
  configs: string[];
  /** The local state (D1, cache) it serves, prepared beforehand with the same `--persist-to`. */
  persistTo: string;
  /** A dev registry of its own (see below). */
  registryDir: string;
};

export async function startWranglerDev({ configs, persistTo, registryDir }: WranglerDevOptions): Promise<WranglerDev> {
  const port = await freeLoopbackPort();
  // Its own devtools port too: wrangler takes 9229 when it looks free, and two servers
  // starting at once would both take it.
  const inspectorPort = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(registryDir, { recursive: true });
  const child = spawn(
    wranglerBin,
    [
      "dev",
      ...configs.flatMap((config) => ["-c", config]),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      persistTo,
      // At info level wrangler logs every request: under load, that output would be the load.
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
    ],
    {
      // The dev registry is machine-wide: a bench worker must neither answer another
      // session's service binding nor bind to another session's worker of the same name.
      env: { ...wranglerEnv, WRANGLER_REGISTRY_PATH: registryDir },
      // The server's stdout is its line protocol with the bench: wrangler writes to stderr.
      stdio: ["ignore", 2, 2],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;

  const ready = Promise.race([
    waitUntilServing(url, START_TIMEOUT_MS, () => true),
    exited.then(() => {
      throw new Error(`wrangler dev (${configs.map((c) => path.basename(path.dirname(c))).join(", ")}) exited before it served`);
    }),
    new Promise<never>((_, reject) => child.once("error", reject)),
  ]);
  ready.catch(() => {}); // the caller awaits it; an early stop must not leave it unhandled

  return {
    url,
    pid: child.pid,
    ready,
    async stop() {
      if (!running()) return;
      // wrangler stops its workerd on SIGTERM (in about a second); a wrangler stuck past that
      // is killed, and whatever it leaves behind dies with the server's process group. Within
      // the 5 s the bench allows the server, so that the server can still remove its state.
      child.kill("SIGTERM");
      const stopped = await Promise.race([exited.then(() => true), sleep(3_000).then(() => false)]);
      if (!stopped) child.kill("SIGKILL");
    },
  };
}
