/**
 * The ledger's check, run and recorded (docs/decisions/027-recorded-ledger-checks.md). The
 * check scans every account and entry, so the overview reads the latest run rather than
 * running it on every visit; the cron keeps a recent one and reports a broken ledger.
 */
import { type LedgerViolation, ledgerViolations } from "./invariants";

export type CheckRunner = "cron" | "operator" | "overview";

/** The cron checks the ledger when its latest run is older than this. */
export const ledgerCheckEveryMs = 10 * 60 * 1000;
/** An overview shown with a run older than this (the cron stopped) checks afresh. */
export const ledgerCheckStaleMs = 60 * 60 * 1000;

export type LedgerCheckRun = { checkedAt: number; violations: number };

/** Runs the check now and records the run; the violations found. */
export async function runLedgerCheck(db: D1Database, now: number, by: CheckRunner): Promise<LedgerViolation[]> {
  const started = Date.now();
  const violations = await ledgerViolations(db);
  await db
    .prepare("INSERT INTO ledger_check_run (checked_at, violations, took_ms, ran_by) VALUES (?1, ?2, ?3, ?4)")
    .bind(now, violations.length, Math.max(0, Date.now() - started), by)
    .run();
  return violations;
}

/** The statement that reads the latest run (by the primary key, newest first). */
export function latestCheckStatement(db: D1Database): D1PreparedStatement {
  return db.prepare("SELECT checked_at, violations FROM ledger_check_run ORDER BY id DESC LIMIT 1");
}

export function checkRunOf(row: { checked_at: number; violations: number } | undefined): LedgerCheckRun | null {
  return row ? { checkedAt: row.checked_at, violations: row.violations } : null;
}
