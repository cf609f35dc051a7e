/**
 * `npm run bench` (after `npm run build` and `node bench/build-anchors.ts`, which builds the
 * anchor and, apart, the anchor with its twin of Paydesk's /help): Paydesk beside the bench's
 * bare React Router app (bench/anchor) in one run, on 127.0.0.1 only.
 *
 *   1. the workers: each one's modules and size (bench/worker-sizes.ts) and its cold start
 *      in a workerd of its own (bench/startup.ts), beside its configuration floor (the same
 *      config with a one-line worker, bench/startup-floor.ts), and the anchor's twin build's
 *      cold start beside the edge's, before anything else runs;
 *   2. loads: bench/serve.ts (a child in its own process group) serves the built edge +
 *      assets + origin, the origin alone, the anchor, the anchor's twin build and the floor
 *      worker with `wrangler dev`; autocannon loads the scenarios of bench/app-scenarios.ts
 *      from this process, in rounds taken in turns;
 *   3. the client's JavaScript and CSS (bench/sizes.ts);
 *   4. Lighthouse on Paydesk's pages and the anchor's, behind a brotli proxy
 *      (bench/lighthouse.ts, bench/compressing-proxy.ts).
 *
 * Then the targets of issue #12 (bench/app-targets.ts), printed and written with every
 * figure to bench/results/latest.json.
 *
 * Exit status: 0 when the bench ran (targets met or not), 1 when it broke (server did
 * not start, a sample response was wrong, a load errored, a part failed).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { waitUntilServing } from "../test/support/wrangler-dev.ts";
import { printReport } from "./app-report.ts";
import { buildScenarios } from "./app-scenarios.ts";
import {
  ceilings,
  cpuReadings,
  evaluateTargets,
  lighthouseCeilings,
  startupCeilings,
  startupShares,
  type BenchFigures,
} from "./app-targets.ts";
import { startCompressingProxy, type CompressingProxy } from "./compressing-proxy.ts";
import { runBench } from "./harness.ts";
import { credentialFor, getTrusting, presentAsEdge, request } from "./http.ts";
import { makeLocalCertificate } from "./local-certificate.ts";
import { RUNS_PER_PAGE, runLighthouse, type LighthousePage } from "./lighthouse.ts";
import { DURATION_S, WARMUP_S } from "./load.ts";
import { loadAverage, noteMachineLoad, writeResults } from "./report.ts";
import { writeSameSizeStatic } from "./same-size-static.ts";
import { runScenariosInRounds, scenarioFailed } from "./scenario.ts";
import type { AppServerInfo } from "./serve.ts";
import { measureSizes, type Sizes } from "./sizes.ts";
import { appBuild } from "./snapshot.ts";
import { measureStartups, STARTS_PER_WORKER, type Startup, type StartupTarget } from "./startup.ts";
import { writeConfigFloor } from "./startup-floor.ts";
import { measureWorker, type WorkerSize } from "./worker-sizes.ts";

const resultsFile = "bench/results/latest.json";

const paydeskPages = ["/", "/help", "/task", "/transfer", "/login"];
const anchorPage = "anchor /";
const twinPage = "anchor /twin";
const SCENARIOS = 9;
/** Each scenario's load is split into rounds taken in turns (bench/scenario.ts, runScenariosInRounds). */
const LOAD_ROUNDS = 3;

/**
 * The whole run (without the build) is stopped after this: wrangler migrating and seeding
 * two D1s and starting five servers (180 s), each scenario's loads and checks, each cold
 * start (10 s), each Lighthouse run (45 s: about 15 s on a quiet machine) and its browser.
 */
const WATCHDOG_MS =
  (180 + SCENARIOS * (WARMUP_S + DURATION_S + 20) + 6 * STARTS_PER_WORKER * 10 + (paydeskPages.length + 2) * RUNS_PER_PAGE * 45) * 1000;

/** The 1-minute load average before and after a part of the run. */
async function timed<T>(loads: Record<string, string>, part: string, work: () => Promise<T>): Promise<T> {
  const before = loadAverage();
  try {
    return await work();
  } finally {
    loads[part] = `${before.toFixed(2)} → ${loadAverage().toFixed(2)}`;
  }
}

function failure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

runBench(WATCHDOG_MS, async (run) => {
  const startedAt = new Date();
  const loads: Record<string, string> = {};
  const problems: string[] = [];

  // Serve and measure a private copy: the working tree may be rebuilt meanwhile.
  const snapshotDir = await run.snapshot(appBuild);
  const clientDir = path.join(snapshotDir, "build/client");
  const { cpus, loadBefore } = noteMachineLoad();

  console.log("The workers: sizes, and cold starts in workerd (each alone, in turns)…");
  const workerDirs = {
    edge: path.join(snapshotDir, "build/server"),
    origin: path.join(snapshotDir, "dist/paydesk_origin"),
    anchor: path.join(snapshotDir, "bench/anchor/build/server"),
  };
  const workerSizes: WorkerSize[] = [];
  for (const [worker, dir] of Object.entries(workerDirs)) {
    try {
      workerSizes.push(measureWorker(worker, dir));
    } catch (error) {
      problems.push(`${worker} size: ${failure(error)}`);
    }
  }
  const startups: Startup[] = await timed(loads, "start-ups", () =>
    measureStartups(
      (
        [
          { worker: "anchor", config: path.join(workerDirs.anchor, "wrangler.json"), path: "/" },
          { worker: "edge", config: path.join(workerDirs.edge, "wrangler.json"), path: "/help" },
          // The call every visit's start-up makes first (docs/start-up.md), without a token: its
          // answer (401) needs no database. Not /api/health, whose segment has one router: the
          // origin evaluates only the routers of the first request's segment
          // (docs/decisions/041-origin-routers-on-first-use.md), so it would flatter the start.
          {
            worker: "origin",
            config: path.join(workerDirs.origin, "wrangler.json"),
            method: "POST",
            path: "/api/user/session",
            presentsEdgeSecret: true,
          },
        ] satisfies StartupTarget[]
      )
        .flatMap((target) => [
          target,
          // The same configuration with a one-line worker: what the start costs before the code's own share.
          { ...target, worker: `${target.worker} floor`, floorOf: target.worker, config: writeConfigFloor(path.dirname(target.config)) },
        ])
        .concat({
          // The framework starting and rendering /help's page, with none of Paydesk's code; its
          // configuration is the anchor's, and so is its floor (docs/decisions/042-the-floor-answers-the-page-headers.md).
          worker: "twin",
          config: path.join(snapshotDir, "bench/anchor/build-twin/server/wrangler.json"),
          path: "/twin",
        }),
    ),
  );
  for (const s of startups) if (s.error) problems.push(`${s.worker} start-up: ${s.error}`);

  console.log(
    "\nStarting the built edge + origin, the origin alone, the anchor, its twin build and the floor worker + origin with wrangler dev…",
  );
  const t0 = performance.now();
  const info = await run.startServer<AppServerInfo>("bench/serve.ts", [snapshotDir]).ready;
  presentAsEdge(info.originUrl, info.edgeSecret);
  await waitUntilServing(`${info.edgeUrl}/help`, 20_000);
  await waitUntilServing(`${info.anchorUrl}/`, 20_000);
  // The floor answers its usage as a 404 until it is asked for a page the bench writes later.
  await waitUntilServing(`${info.floorUrl}/floor`, 20_000, (status) => status === 404);
  // The origin answers any request (a GET of the session route is its JSON 404); the session check comes later.
  await waitUntilServing(`${info.originUrl}/api/user/session`, 20_000, (status) => status < 500, credentialFor(info.originUrl));
  console.log(
    `  edge ${info.edgeUrl} (workers ${info.workers.join(", ")}), origin direct ${info.originUrl}, anchor ${info.anchorUrl}, floor ${info.floorUrl}; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  // The cached page's ceiling: its own bytes as a static file of the edge's assets (and, for
  // the floor, the headers the edge answered it with).
  const help = await request(`${info.edgeUrl}/help`, { headers: { "Accept-Language": "en" } });
  if (help.status !== 200) throw new Error(`GET /help answered ${help.status}`);
  const helpBytes = Buffer.from(help.body);
  const sameSizeStatic = writeSameSizeStatic(clientDir, helpBytes, help.headers);

  const scenarios: BenchFigures["scenarios"] = await timed(loads, "loads", () =>
    runScenariosInRounds(buildScenarios(info, sameSizeStatic), LOAD_ROUNDS),
  );

  let sizes: Sizes | null = null;
  try {
    const page = async (path: string) => {
      const answer = await request(`${info.edgeUrl}${path}`, { headers: { "Accept-Language": "en" } });
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
      return { html: answer.body, url: `${info.edgeUrl}${path}` };
    };
    const otherPages = await Promise.all(paydeskPages.filter((path) => path !== "/").map(page));
    sizes = measureSizes(clientDir, await page("/"), otherPages);
  } catch (error) {
    problems.push(`sizes: ${failure(error)}`);
    console.error(`  ✗ sizes: ${failure(error)}`);
  }

  // The proxy speaks HTTPS and HTTP/2 as Cloudflare does, given a certificate; without
  // `openssl` it falls back to HTTP/1.1, and the results say which (decision 035).
  const certificate = makeLocalCertificate();
  const tls = "error" in certificate ? undefined : certificate;
  const transport = "error" in certificate ? `HTTP/1.1 (${certificate.error})` : "HTTPS with HTTP/2";
  console.log(`\nLighthouse (3 runs a page, the pages in turns, behind the proxy over ${transport})…`);
  const proxies: CompressingProxy[] = [];
  const lighthouse = await timed(loads, "Lighthouse", async () => {
    try {
      const edgeProxy = await startCompressingProxy(info.edgeUrl, { tls });
      proxies.push(edgeProxy);
      const anchorProxy = await startCompressingProxy(info.anchorUrl, { tls });
      proxies.push(anchorProxy);
      const twinProxy = await startCompressingProxy(info.twinUrl, { tls });
      proxies.push(twinProxy);
      const pages: LighthousePage[] = [
        ...paydeskPages.map((page) => ({ name: page, url: edgeProxy.url + page })),
        { name: anchorPage, url: `${anchorProxy.url}/` },
        { name: twinPage, url: `${twinProxy.url}/twin` },
      ];
      // Each page answers 200 in English through the proxy before Lighthouse loads it.
      for (const page of pages) {
        const answer = await getTrusting(page.url, { "Accept-Language": "en" }, tls?.cert);
        if (answer.status !== 200 || !/<html[^>]*\blang="en"/.test(answer.body)) {
          throw new Error(`${page.url} answered ${answer.status}${answer.status === 200 ? " without <html lang=en>" : ""}`);
        }
      }
      return await runLighthouse(pages, (kill) => run.holdWhileRunning(kill), { trustSpki: tls?.spkiHash });
    } finally {
      await Promise.all(proxies.map((proxy) => proxy.close()));
    }
  }).catch((error: unknown) => {
    problems.push(`Lighthouse: ${failure(error)}`);
    console.error(`  ✗ Lighthouse: ${failure(error)}`);
    return [];
  });
  for (const page of lighthouse) if (page.error) problems.push(`Lighthouse ${page.name}: ${page.error}`);

  await run.stopServer();
  run.removeSnapshot();

  const figures: BenchFigures = { scenarios, sizes, lighthouse, anchorPage, twinPage, workerSizes, startups };
  const targetResults = evaluateTargets(figures);
  const ceilingResults = [...ceilings(scenarios), ...lighthouseCeilings(figures), ...startupCeilings(startups)];
  const cpuResults = cpuReadings(scenarios);
  printReport(figures, targetResults, ceilingResults, cpuResults, loads);

  const broken = scenarios.filter(scenarioFailed).map((s) => s.label);
  writeResults(
    resultsFile,
    startedAt,
    { cpus, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadAverage() },
    {
      loadAverageByPart: loads,
      server: {
        how: "wrangler dev: build/server edge worker + build/client assets + dist/paydesk_origin bound in-process; dist/paydesk_origin alone in a second wrangler dev for the direct calls; bench/anchor/build/server + its assets in a third, bench/anchor/build-twin (the same app with its /twin route) in a fifth; bench/floor/worker.ts in the edge's place (same assets, routing and binding) + dist/paydesk_origin in a fourth",
        ...info,
        token: undefined,
        edgeSecret: undefined,
      },
      sameSizeStatic,
      scenarios,
      sizes,
      lighthouse: {
        how: `lighthouse ${lighthouseVersion()}, Node API, mobile preset, simulated throttling, Accept-Language: en, ${RUNS_PER_PAGE} runs a page, medians; behind a local brotli proxy over ${transport}`,
        pages: lighthouse,
      },
      workers: { sizes: workerSizes, startups, startupShares: startupShares(startups) },
      targets: targetResults,
      ceilings: ceilingResults,
      cpuReadings: cpuResults,
      problems,
      ok: broken.length === 0 && problems.length === 0,
    },
  );

  if (broken.length || problems.length) {
    console.error(`\nThe bench is incomplete: ${[...broken, ...problems].join("; ")}`);
    return 1;
  }
  return 0;
});

function lighthouseVersion(): string {
  const manifest = path.join(import.meta.dirname, "../node_modules/lighthouse/package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
