/**
 * One scenario of a bench, run the same way in every bench: a sample answer is checked
 * first (a load of wrong answers measures nothing), then a warm-up load, the measured
 * load, and the sample again (the load must not have broken anything). Whatever fails is
 * recorded in the result rather than thrown, so that the other scenarios still run.
 */
import { DURATION_S, WARMUP_S, type LoadResult } from "./load.ts";

export type Check = { ok: boolean; detail: string };

export type Scenario<Key extends string, Result extends LoadResult> = {
  key: Key;
  label: string;
  /** As the results file names it. */
  url: string;
  /** Prepares (warms) and checks a sample answer; run before and after the load. */
  check: () => Promise<Check>;
  /** One load of the given length (the warm-up is one too). */
  load: (durationS: number) => Promise<Result>;
  /** Runs after each load, the warm-up's too, and may note on its result what it did. */
  afterLoad?: (result: Result) => Promise<void>;
};

export type ScenarioResult<Key extends string, Result extends LoadResult> = {
  key: Key;
  label: string;
  url: string;
  checkBefore: Check;
  checkAfter?: Check;
  result?: Result;
  /** Run in rounds (runScenariosInRounds): what each round reached; `result` is the middle one. */
  rounds?: Round[];
  error?: string;
};

/** Not measured, or measured with a failed check or an error. */
export function scenarioFailed(s: ScenarioResult<string, LoadResult>): boolean {
  return !s.result || Boolean(s.error) || !s.checkBefore.ok || (s.checkAfter !== undefined && !s.checkAfter.ok);
}

/** Runs one scenario and prints its progress and one-line summary; `note` adds to the summary. */
export async function runScenario<Key extends string, Result extends LoadResult>(
  scenario: Scenario<Key, Result>,
  note: (result: Result) => string = () => "",
): Promise<ScenarioResult<Key, Result>> {
  const out: ScenarioResult<Key, Result> = {
    key: scenario.key,
    label: scenario.label,
    url: scenario.url,
    checkBefore: { ok: false, detail: "not run" },
  };
  try {
    out.checkBefore = await scenario.check();
    if (!out.checkBefore.ok) {
      console.error(`  ✗ ${scenario.label}: ${out.checkBefore.detail} — not loaded`);
      return out;
    }
    process.stdout.write(`  ${scenario.label}: `);
    if (WARMUP_S > 0) {
      process.stdout.write(`warm-up ${WARMUP_S} s… `);
      const warmUp = await scenario.load(WARMUP_S);
      await scenario.afterLoad?.(warmUp);
    }
    process.stdout.write(`load ${DURATION_S} s… `);
    out.result = await scenario.load(DURATION_S);
    await scenario.afterLoad?.(out.result);
    out.checkAfter = await scenario.check();
    const r = out.result;
    console.log(
      `${r.rps.toFixed(0)} req/s, p50 ${r.latencyMs.p50.toFixed(2)} ms, p99 ${r.latencyMs.p99.toFixed(2)} ms` +
        (r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} socket errors (${r.timeouts} time-outs)` : "") +
        note(r) +
        (out.checkAfter.ok ? "" : ` — check after load FAILED: ${out.checkAfter.detail}`),
    );
  } catch (error) {
    out.error = error instanceof Error ? error.message : String(error);
    console.error(`\n  ✗ ${scenario.label}: ${out.error}`);
  }
  return out;
}

/** A load's share of a scenario run in rounds: what each round reached. */
export type Round = { rps: number; p50Ms: number; serverCpuMsPerRequest?: number };

/**
 * Runs scenarios side by side in `rounds` rounds (each scenario's sample checked and warmed
 * first, then a load of durationS / rounds seconds for each scenario in turn, round after
 * round, then each sample checked again). A scenario's result is its middle round by
 * requests per second, with every round's figures kept beside it. The two sides of a
 * comparison are then no longer measured minutes apart: a burst of other work on the
 * machine falls on one round of each, not on all of one scenario.
 */
export async function runScenariosInRounds<Key extends string, Result extends LoadResult>(
  scenarios: Scenario<Key, Result>[],
  rounds: number,
  { warmUpS = WARMUP_S, durationS = DURATION_S }: { warmUpS?: number; durationS?: number } = {},
): Promise<ScenarioResult<Key, Result>[]> {
  const outs = scenarios.map((scenario) => {
    const out: ScenarioResult<Key, Result> = {
      key: scenario.key,
      label: scenario.label,
      url: scenario.url,
      checkBefore: { ok: false, detail: "not run" },
    };
    return { scenario, out, results: [] as Result[] };
  });
  const failed = (entry: (typeof outs)[number], error: unknown) => {
    entry.out.error = error instanceof Error ? error.message : String(error);
    console.error(`  ✗ ${entry.scenario.label}: ${entry.out.error}`);
  };
  const live = () => outs.filter((entry) => entry.out.checkBefore.ok && !entry.out.error);

  for (const entry of outs) {
    try {
      entry.out.checkBefore = await entry.scenario.check();
      if (!entry.out.checkBefore.ok) {
        console.error(`  ✗ ${entry.scenario.label}: ${entry.out.checkBefore.detail} — not loaded`);
        continue;
      }
      if (warmUpS > 0) {
        const warmUp = await entry.scenario.load(warmUpS);
        await entry.scenario.afterLoad?.(warmUp);
      }
    } catch (error) {
      failed(entry, error);
    }
  }
  const roundS = durationS / rounds;
  for (let round = 1; round <= rounds; round++) {
    console.log(`  round ${round} of ${rounds} (${roundS.toFixed(1)} s a scenario)`);
    for (const entry of live()) {
      try {
        const result = await entry.scenario.load(roundS);
        await entry.scenario.afterLoad?.(result);
        entry.results.push(result);
        const cpu = result.serverCpuMsPerRequest === undefined ? "" : `, server CPU ${result.serverCpuMsPerRequest.toFixed(2)} ms/req`;
        console.log(`    ${entry.scenario.label}: ${result.rps.toFixed(0)} req/s, p50 ${result.latencyMs.p50.toFixed(2)} ms${cpu}`);
      } catch (error) {
        failed(entry, error);
      }
    }
  }
  for (const entry of live()) {
    try {
      const byRps = [...entry.results].sort((a, b) => a.rps - b.rps);
      entry.out.result = byRps[Math.floor((byRps.length - 1) / 2)];
      entry.out.rounds = entry.results.map((r) => ({ rps: r.rps, p50Ms: r.latencyMs.p50, serverCpuMsPerRequest: r.serverCpuMsPerRequest }));
      entry.out.checkAfter = await entry.scenario.check();
      if (!entry.out.checkAfter.ok)
        console.error(`  ✗ ${entry.scenario.label}: check after the loads FAILED: ${entry.out.checkAfter.detail}`);
    } catch (error) {
      failed(entry, error);
    }
  }
  return outs.map((entry) => entry.out);
}
