/**
 * The tables `npm run bench` prints: loads, client sizes, Lighthouse, the workers' sizes
 * and start-ups, then the targets (bench/app-targets.ts).
 */
import { signedMs, startupShares, targets, type BenchFigures, type Ceiling, type CpuReading } from "./app-targets.ts";
import { loadDescription, type LoadResult } from "./load.ts";
import { columns, pad, padLeft, printScenarioTable, targetMark, type TargetResult } from "./report.ts";
import { type Round, scenarioFailed } from "./scenario.ts";
import { raceText } from "./lighthouse.ts";
import { KB, type Sizes } from "./sizes.ts";

/** More than 1% of the requests failed at the socket level: the numbers are suspect. */
const erratic = (r: LoadResult) => r.errors > 0.01 * Math.max(1, r.requests);
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

function printLoads(scenarios: BenchFigures["scenarios"]): void {
  const ceiling = scenarios.find((s) => s.key === "sameSizeStatic")?.result?.rps;
  console.log(`\nThroughput and latency (${loadDescription})\n`);
  printScenarioTable(
    scenarios,
    50,
    [
      columns.rps,
      columns.p50,
      columns.p99,
      { title: "×static", width: 8, value: (r) => (ceiling ? `${(r.rps / ceiling).toFixed(2)}` : "—") },
      { title: "KB/resp", width: 8, value: (r) => (r.bytesPerResponse / KB).toFixed(1) },
      { title: "CPU ms", width: 8, value: (r) => r.serverCpuMsPerRequest?.toFixed(2) ?? "—" },
      columns.non2xx,
      columns.errors,
    ],
    (s, r) => `${scenarioFailed(s) ? "  (check failed)" : ""}${erratic(r) ? "  (many errors)" : ""}`,
  );
  console.log(`\nEach scenario's rounds (req/s, with the server's CPU ms a request; the table shows the middle one)\n`);
  for (const s of scenarios) {
    const round = (r: Round) =>
      `${r.rps.toFixed(0)}${r.serverCpuMsPerRequest === undefined ? "" : ` (${r.serverCpuMsPerRequest.toFixed(2)})`}`;
    if (s.rounds?.length) console.log(`  ${pad(s.label, 50)} ${s.rounds.map(round).join(", ")}`);
  }
}

function printSizes(sizes: Sizes): void {
  console.log(`\nFirst visit to / — JavaScript referenced by the HTML (gzip -9)\n`);
  for (const f of sizes.firstVisit.files) console.log(`  ${pad(f.file, 44)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}`);
  console.log(
    `  ${pad(`total (${sizes.firstVisit.files.length} files)`, 44)} ${padLeft(kb(sizes.firstVisit.totalBytes), 10)} ${padLeft(kb(sizes.firstVisit.totalGzip), 10)}`,
  );
  if (sizes.firstVisit.unreferencedStaticImports.length) {
    console.log(`  note: statically imported but not referenced by the HTML: ${sizes.firstVisit.unreferencedStaticImports.join(", ")}`);
  }
  console.log(`\nFirst visit to the other pages Lighthouse loads (gzip -9; the target names /)\n`);
  for (const visit of sizes.otherFirstVisits) {
    const over = visit.totalGzip > targets.firstVisitJsKb * KB ? `  over ${targets.firstVisitJsKb} KB` : "";
    const unreferenced = visit.unreferencedStaticImports.length
      ? `  (not referenced by the HTML: ${visit.unreferencedStaticImports.join(", ")})`
      : "";
    console.log(
      `  ${pad(new URL(visit.page).pathname, 12)} ${padLeft(`${visit.files.length} files`, 9)} ${padLeft(kb(visit.totalGzip), 10)}${over}${unreferenced}`,
    );
  }
  console.log(`\nRoute modules (each route's own chunk, gzip -9; target ≤ ${targets.routeChunkKb} KB)\n`);
  for (const r of sizes.routes) {
    const shared = r.sharedWith.length ? ` (same file as ${r.sharedWith.join(", ")})` : "";
    console.log(
      `  ${pad(r.routeId, 12)} ${pad(r.module, 36)} ${padLeft(kb(r.gzip), 10)} ${r.gzip <= targets.routeChunkKb * KB ? "" : "  OVER"}${shared}`,
    );
  }
  console.log(`\nCSS (gzip -9)\n`);
  for (const f of sizes.css.files) {
    const first = sizes.css.firstVisit.includes(f.file) ? "  (first visit)" : "";
    console.log(`  ${pad(f.file, 44)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}${first}`);
  }
  console.log(
    `  ${pad(`total (${sizes.css.files.length} files)`, 44)} ${padLeft(kb(sizes.css.totalBytes), 10)} ${padLeft(kb(sizes.css.totalGzip), 10)}`,
  );
}

function printLighthouse(pages: BenchFigures["lighthouse"]): void {
  console.log(`\nLighthouse (mobile, simulated throttling, behind a brotli proxy; median of 3 runs, taken in turns)\n`);
  const header = `${pad("page", 14)} ${["perf", "a11y", "bp", "seo"].map((t) => padLeft(t, 5)).join(" ")} ${["FCP ms", "LCP ms", "TBT ms"].map((t) => padLeft(t, 8)).join(" ")} ${padLeft("CLS", 6)}`;
  console.log(header);
  console.log("-".repeat(header.length));
  for (const page of pages) {
    const m = page.median;
    if (!m) {
      console.log(`${pad(page.name, 14)} not measured: ${page.error ?? "no runs"}`);
      continue;
    }
    const scores = [m.scores.performance, m.scores.accessibility, m.scores["best-practices"], m.scores.seo];
    console.log(
      `${pad(page.name, 14)} ${scores.map((s) => padLeft(s === null ? "—" : String(s), 5)).join(" ")} ${[m.fcpMs, m.lcpMs, m.tbtMs].map((v) => padLeft(v.toFixed(0), 8)).join(" ")} ${padLeft(m.cls.toFixed(3), 6)}`,
    );
  }
  console.log(
    `\nEach run's LCP, the scripts its simulation waited for (those loaded before the first paint; decision 035), and the race as the browser ran it (ms after the navigation started)\n`,
  );
  for (const page of pages) {
    if (!page.runs.length) continue;
    const runs = page.runs.map((run) => {
      const scripts = run.lcpScripts;
      const waited =
        scripts === undefined
          ? "?"
          : scripts.length === 0
            ? "painted first"
            : `${scripts.length}: ${scripts[0]}${scripts.length > 1 ? ", …" : ""}`;
      return `${run.lcpMs.toFixed(0)} ms (${waited}${run.observed ? `; ${raceText(run.observed)}` : ""})`;
    });
    console.log(`  ${pad(page.name, 12)} ${runs.join("\n               ")}`);
  }
  console.log(`\nAudits that did not pass (in how many of the 3 runs)\n`);
  for (const page of pages) {
    if (!page.failedAudits.length) continue;
    console.log(`  ${page.name}`);
    for (const a of page.failedAudits) {
      console.log(`    ${pad(`${a.category}/${a.id}`, 44)} ${pad(a.title, 52)} ${a.displayValue ?? ""} (${a.runs}/3)`);
    }
  }
}

/** A difference in ms with its sign, or a dash where it was not read. */
const signed = (ms: number | null) => (ms === null ? "—" : signedMs(ms));

function printWorkers(figures: BenchFigures): void {
  console.log(`\nWorkers — modules evaluated at start-up, and on-demand chunks, all parsed at start-up (uncompressed / gzip -9)\n`);
  for (const w of figures.workerSizes) {
    console.log(`  ${pad(w.worker, 8)} start-up ${padLeft(kb(w.startupBytes), 10)} ${padLeft(kb(w.startupGzip), 10)}`);
    for (const f of w.startup) console.log(`             ${pad(f.file, 40)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}`);
    for (const f of w.onDemand) console.log(`    on demand ${pad(f.file, 40)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}`);
  }
  console.log(
    `\nStart-up — workerd with the worker alone, to the end of the first answer (median of ${figures.startups[0]?.runsMs.length ?? 0})\n`,
  );
  const anchor = figures.startups.find((s) => s.worker === "anchor")?.medianMs ?? null;
  for (const s of figures.startups) {
    if (s.medianMs === null) {
      console.log(`  ${pad(s.worker, 8)} not measured: ${s.error ?? "no runs"}`);
      continue;
    }
    const over = anchor !== null && s.worker !== "anchor" && s.floorOf === undefined ? `  (${signed(s.medianMs - anchor)} vs anchor)` : "";
    console.log(
      `  ${pad(s.worker, 12)} ${pad(`${s.method} ${s.path}`, 24)} ${padLeft(`${s.medianMs.toFixed(0)} ms`, 9)}  min ${padLeft(`${s.minMs?.toFixed(0)} ms`, 8)}  runs ${s.runsMs.map((ms) => ms.toFixed(0)).join(", ")}${over}`,
    );
  }
  const anchorCpu = figures.startups.find((s) => s.worker === "anchor")?.cpuMedianMs ?? null;
  console.log(`\nStart-up by workerd's CPU time (median; what a start costs, not what it waited for)\n`);
  for (const s of figures.startups) {
    if (s.cpuMedianMs === null) continue;
    const over =
      anchorCpu !== null && s.worker !== "anchor" && s.floorOf === undefined ? `  (${signed(s.cpuMedianMs - anchorCpu)} vs anchor)` : "";
    console.log(
      `  ${pad(s.worker, 12)} ${padLeft(`${s.cpuMedianMs.toFixed(0)} ms`, 9)}  runs ${s.cpuRunsMs.map((ms) => ms.toFixed(0)).join(", ")}${over}`,
    );
  }
  const shares = startupShares(figures.startups);
  if (!shares.length) return;
  console.log(
    `\nStart-up over each worker's configuration floor (its wrangler.json with a one-line worker: the local bindings' cost apart, the code's own share left)\n`,
  );
  for (const s of shares) {
    const vsAnchor =
      s.worker === "anchor" ? "" : `   vs the anchor's share: ${signed(s.overAnchorShareMs)} wall, ${signed(s.overAnchorShareCpuMs)} CPU`;
    console.log(
      `  ${pad(s.worker, 8)} floor ${padLeft(`${s.floorMs.toFixed(0)} ms`, 7)} (CPU ${s.floorCpuMs === null ? "—" : `${s.floorCpuMs.toFixed(0)} ms`})  code ${padLeft(signed(s.overFloorMs), 7)} wall, ${padLeft(signed(s.overFloorCpuMs), 7)} CPU${vsAnchor}`,
    );
  }
}

export function printReport(
  figures: BenchFigures,
  targetResults: TargetResult[],
  ceilingResults: Ceiling[],
  cpuResults: CpuReading[],
  loadByPart: Record<string, string>,
): void {
  printLoads(figures.scenarios);
  if (figures.sizes) printSizes(figures.sizes);
  printLighthouse(figures.lighthouse);
  printWorkers(figures);
  console.log(`\nMachine load (1-min load average, before → after each part)\n`);
  for (const [part, load] of Object.entries(loadByPart)) console.log(`  ${pad(part, 24)} ${load}`);
  console.log(`\nTargets\n`);
  for (const t of targetResults) console.log(`  ${pad(t.name, 26)} ${pad(t.target, 30)} ${pad(t.actual, 52)} ${targetMark(t)}`);
  console.log(`\nCeilings on this machine (the floor worker in Paydesk's place; for a render, the anchor rendering its page)\n`);
  for (const c of ceilingResults) console.log(`  ${pad(c.target, 26)} floor ${pad(c.floor, 56)} Paydesk ${c.paydeskVsFloor}`);
  console.log(`\nBy the servers' CPU per request (throughput ratio the CPU allows: other ÷ Paydesk)\n`);
  for (const c of cpuResults)
    console.log(
      `  ${pad(c.comparison, 34)} ${padLeft(c.paydeskMs.toFixed(2), 6)} vs ${padLeft(c.otherMs.toFixed(2), 6)} ms  ${c.ratio.toFixed(2)}×`,
    );
}
