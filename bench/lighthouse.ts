/**
 * Lighthouse (its Node API, the default mobile preset with simulated throttling) against
 * pages behind the compressing proxy (bench/compressing-proxy.ts, HTTPS and HTTP/2 where a
 * certificate could be made), in Debian's Chromium: three runs a page, taken in turns with
 * the other pages', the median of each figure, and the audits that did not pass.
 */
import { launch, type LaunchedChrome } from "chrome-launcher";
import lighthouse, { type Flags, type Result } from "lighthouse";
// Lighthouse's own copy of its simulator (Lantern), to read what each run's LCP counted.
import * as Lantern from "lighthouse/core/lib/lantern/lantern.js";
import { chromiumFlags, chromiumPath } from "../test/support/chromium.ts";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

export const RUNS_PER_PAGE = 3;
/** One Lighthouse run waits at most this long for a page; a run over it fails the page. */
const RUN_TIMEOUT_MS = 120_000;

export type Figures = {
  scores: Record<Category, number | null>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /**
   * The scripts the simulated LCP waited for (their paths, largest first): those that had
   * finished loading before the observed first paint (docs/decisions/035-start-up-floors.md).
   * Empty when the page painted first. Absent from a median.
   */
  lcpScripts?: string[];
  /** When the run's page painted its LCP, and when its scripts finished loading (`observedRace`). Absent from a median. */
  observed?: ObservedRace;
};

/**
 * What the browser did in the run Lighthouse observed (not simulated), in ms after the
 * navigation started: when it painted the page's largest contentful element (on Paydesk's
 * pages and the anchor's, its first paint), and when each of the page's scripts finished
 * loading. The simulated LCP counts the scripts that finished before that paint
 * (`scriptsInLcp`); these times show by how much each side won the race.
 */
export type ObservedRace = { paintMs: number; scripts: { path: string; finishedMs: number }[] };

/** The race in a few words: the LCP's paint, the scripts loaded before it (the last of them), and the first one after. */
export function raceText({ paintMs, scripts }: ObservedRace): string {
  const before = scripts.filter((script) => script.finishedMs <= paintMs);
  const after = scripts.find((script) => script.finishedMs > paintMs);
  const lastBefore = before.at(-1);
  return [
    `LCP painted at ${paintMs.toFixed(0)} ms`,
    lastBefore
      ? `${before.length} script${before.length > 1 ? "s" : ""} loaded before it (the last at ${lastBefore.finishedMs.toFixed(0)})`
      : "no script loaded before it",
    after ? `the next at ${after.finishedMs.toFixed(0)}` : "none after it",
  ].join(", ");
}

type TraceEvent = { name: string; ts: number; args?: { frame?: string; data?: Record<string, unknown> } };

/** The observed race in a run's trace (Lighthouse's `Trace` artifact); null if the trace lacks the navigation or the LCP. */
export function observedRace(traceEvents: readonly TraceEvent[], pageUrl: string): ObservedRace | null {
  const origin = new URL(pageUrl).origin;
  const navigation = traceEvents.find(
    (e) =>
      e.name === "navigationStart" &&
      e.args?.data?.isLoadingMainFrame === true &&
      typeof e.args.data.documentLoaderURL === "string" &&
      e.args.data.documentLoaderURL.startsWith(origin),
  );
  if (!navigation) return null;
  // The last candidate is the LCP the run reports.
  const paint = traceEvents.findLast(
    (e) => e.name === "largestContentfulPaint::Candidate" && e.args?.frame === navigation.args?.frame && e.ts >= navigation.ts,
  );
  if (!paint) return null;
  const ms = (microseconds: number) => Math.round((microseconds - navigation.ts) / 100) / 10;
  const scriptUrls = new Map<string, string>();
  for (const e of traceEvents) {
    const url = e.args?.data?.url;
    if (e.name === "ResourceSendRequest" && typeof url === "string" && url.startsWith(origin) && new URL(url).pathname.endsWith(".js")) {
      scriptUrls.set(String(e.args?.data?.requestId), new URL(url).pathname);
    }
  }
  const scripts: ObservedRace["scripts"] = [];
  for (const e of traceEvents) {
    const path = e.name === "ResourceFinish" ? scriptUrls.get(String(e.args?.data?.requestId)) : undefined;
    const finishTime = e.args?.data?.finishTime;
    // finishTime is in seconds on the trace's clock; a request that failed has none.
    if (path && typeof finishTime === "number" && finishTime > 0) scripts.push({ path, finishedMs: ms(finishTime * 1e6) });
  }
  return { paintMs: ms(paint.ts), scripts: scripts.sort((a, b) => a.finishedMs - b.finishedMs) };
}

/** The simulation behind the LCP Lighthouse reports (its pessimistic graph, the larger of the two it blends). */
const lcpSimulation = "pessimisticLargestContentfulPaint";

/** Which scripts the last run's LCP simulation counted, by path, largest first; null if it did not run. */
export function scriptsInLcp(timings: ReadonlyMap<string, ReadonlyMap<unknown, unknown>>): string[] | null {
  const graph = timings.get(lcpSimulation);
  if (!graph) return null;
  const scripts: { path: string; bytes: number }[] = [];
  for (const node of graph.keys()) {
    const { type, request } = node as { type?: string; request?: { resourceType?: string; url?: string; transferSize?: number } };
    if (type !== "network" || request?.resourceType !== "Script" || !request.url) continue;
    scripts.push({ path: new URL(request.url).pathname, bytes: request.transferSize ?? 0 });
  }
  return scripts.sort((a, b) => b.bytes - a.bytes).map((script) => script.path);
}

/** An audit of a scored category that did not pass, and in how many of the runs. */
export type FailedAudit = { id: string; title: string; category: Category; score: number; displayValue?: string; runs: number };

export type PageResult = {
  name: string;
  url: string;
  finalUrl?: string;
  runs: Figures[];
  median?: Figures;
  failedAudits: FailedAudit[];
  error?: string;
};

export type LighthousePage = { name: string; url: string };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function figuresOf(lhr: Result): Figures {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, lhr.categories[c]?.score === null || !lhr.categories[c] ? null : Math.round(lhr.categories[c].score * 100)]),
  ) as Record<Category, number | null>;
  return {
    scores,
    fcpMs: numeric("first-contentful-paint"),
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
  };
}

function medianOf(runs: Figures[]): Figures {
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => {
      const values = runs.map((r) => r.scores[c]).filter((v): v is number => v !== null);
      return [c, values.length ? median(values) : null];
    }),
  ) as Record<Category, number | null>;
  return {
    scores,
    fcpMs: median(runs.map((r) => r.fcpMs)),
    lcpMs: median(runs.map((r) => r.lcpMs)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    cls: median(runs.map((r) => r.cls)),
  };
}

/** Scored audits under 1 (binary, numeric, metric savings); informative and not-applicable ones are left out. */
function failedAudits(lhr: Result): Omit<FailedAudit, "runs">[] {
  const failed: Omit<FailedAudit, "runs">[] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (!["binary", "numeric", "metricSavings"].includes(audit.scoreDisplayMode)) continue;
      failed.push({ id: audit.id, title: audit.title, category, score: audit.score, displayValue: audit.displayValue });
    }
  }
  return failed;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Each page's runs taken in turns: the first run of every page, then the second, and so on.
 * Run back to back, each page would get the browser and the machine of its moment in the
 * sequence (the anchor's, near the end, the quietest); in turns, every page is measured
 * across the same stretch of time, as the loads are (bench/scenario.ts). A page whose run
 * fails is not run again; its error is kept.
 */
export async function runsInTurns<Page, Run>(
  pages: readonly Page[],
  runsPerPage: number,
  runOne: (page: Page, run: number, index: number) => Promise<Run>,
): Promise<{ runs: Run[]; error?: unknown }[]> {
  const outcomes: { runs: Run[]; error?: unknown }[] = pages.map(() => ({ runs: [] }));
  for (let run = 1; run <= runsPerPage; run++) {
    for (const [index, page] of pages.entries()) {
      const outcome = outcomes[index]!;
      if ("error" in outcome) continue;
      try {
        outcome.runs.push(await runOne(page, run, index));
      } catch (error) {
        outcome.error = error;
      }
    }
  }
  return outcomes;
}

/**
 * Runs Lighthouse on the pages, their runs in turns (`runsInTurns`); `hold` registers
 * Chromium so that the bench kills it whatever happens. `trustSpki` is the public-key hash
 * of the one certificate Chromium is to trust besides its own store (the proxy's,
 * bench/local-certificate.ts).
 */
export async function runLighthouse(
  pages: LighthousePage[],
  hold: (kill: () => void) => () => void,
  { trustSpki }: { trustSpki?: string } = {},
): Promise<PageResult[]> {
  const chromeFlags = trustSpki ? [...chromiumFlags, `--ignore-certificate-errors-spki-list=${trustSpki}`] : chromiumFlags;
  const results: PageResult[] = pages.map((page) => ({ name: page.name, url: page.url, runs: [], failedAudits: [] }));
  const failed = pages.map(() => new Map<string, FailedAudit>());
  let chrome: LaunchedChrome | null = null;
  let release = () => {};
  const stopChrome = () => {
    release();
    chrome?.kill();
    chrome = null;
  };

  const runOne = async (page: LighthousePage, run: number, index: number): Promise<Figures> => {
    try {
      if (!chrome) {
        chrome = await launch({ chromePath: chromiumPath, chromeFlags, logLevel: "silent", handleSIGINT: false });
        const launched = chrome;
        release = hold(() => launched.kill());
      }
      const flags: Flags = {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
        throttlingMethod: "simulate",
        // Pages choose their language by Accept-Language (workers/edge): measured in English.
        extraHeaders: { "Accept-Language": "en" },
      };
      Lantern.Simulation.Simulator.allNodeTimings.clear();
      const answer = await withTimeout(lighthouse(page.url, flags), RUN_TIMEOUT_MS, `Lighthouse on ${page.url}`);
      const lhr = answer?.lhr;
      if (!lhr) throw new Error("Lighthouse returned no result");
      if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      results[index]!.finalUrl = lhr.finalDisplayedUrl;
      const trace = (answer?.artifacts as { Trace?: { traceEvents?: TraceEvent[] } } | undefined)?.Trace?.traceEvents;
      const figures: Figures = {
        ...figuresOf(lhr),
        lcpScripts: scriptsInLcp(Lantern.Simulation.Simulator.allNodeTimings) ?? undefined,
        observed: (trace && observedRace(trace, lhr.finalDisplayedUrl)) ?? undefined,
      };
      for (const audit of failedAudits(lhr)) {
        const key = `${audit.category}/${audit.id}`;
        const seen = failed[index]!.get(key);
        failed[index]!.set(key, seen ? { ...seen, score: Math.min(seen.score, audit.score), runs: seen.runs + 1 } : { ...audit, runs: 1 });
      }
      console.log(`  run ${run}, ${page.name}: perf ${figures.scores.performance}, LCP ${figures.lcpMs.toFixed(0)} ms`);
      return figures;
    } catch (error) {
      console.error(`  ✗ run ${run}, ${page.name}: ${error instanceof Error ? error.message : String(error)}`);
      stopChrome(); // a run that failed may have left the browser in any state
      throw error;
    }
  };

  try {
    const outcomes = await runsInTurns(pages, RUNS_PER_PAGE, runOne);
    for (const [index, { runs, error }] of outcomes.entries()) {
      const result = results[index]!;
      result.runs = runs;
      result.failedAudits = [...failed[index]!.values()];
      if (error !== undefined) result.error = error instanceof Error ? error.message : String(error);
      else {
        result.median = medianOf(runs);
        console.log(`  ${result.name}: median LCP ${result.median.lcpMs.toFixed(0)} ms`);
      }
    }
  } finally {
    stopChrome();
  }
  return results;
}
