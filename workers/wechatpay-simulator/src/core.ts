/**
 * The state-and-clock core every part of the simulator shares: the stored state, the
 * simulator's clock, the keys, the work the state waits for, and WeChat Pay's ids and times.
 */
import { importKeyring, type Keyring } from "./keys";
import { randomDigits, randomHex } from "./sim-crypto";
import { initialState, type SimulatorState } from "./state";

export type SimulatorOptions = {
  /** The real clock (ms); the simulator's own clock adds `state.clockOffsetMs`. */
  now?: () => number;
  /** How notifications leave: `fetch`, or a service binding in tests. */
  deliver: (request: Request) => Promise<Response>;
  /** Where h5_url points; WeChat Pay's cashier by default, a simulator page in local emulation. */
  h5UrlBase?: string;
  /** Seconds until a PROCESSING refund succeeds by itself. */
  refundSettleSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Stores the state before a delayed answer, so a time-out after the change keeps it. */
  persist?: () => Promise<void>;
};

export class SimulatorCore {
  state: SimulatorState;
  readonly options: SimulatorOptions;
  private readonly realNow: () => number;
  private keyring: Promise<Keyring> | null = null;
  private pending: Promise<void>[] = [];

  constructor(options: SimulatorOptions, state?: SimulatorState) {
    this.options = options;
    this.realNow = options.now ?? (() => Date.now());
    this.state = state ?? initialState();
  }

  now(): number {
    return this.realNow() + this.state.clockOffsetMs;
  }

  keys(): Promise<Keyring> {
    this.keyring ??= importKeyring();
    return this.keyring;
  }

  sleep(ms: number): Promise<void> {
    return this.options.sleep ? this.options.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Work that finishes a change to the state (a notification body being sealed). */
  track(work: Promise<void>): void {
    this.pending.push(work);
  }

  /** Waits for tracked work, so the state is never stored half-made. */
  async settled(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }
}

/** WeChat Pay writes times in China Standard Time, to the second. */
export const cst = (at: number) => `${new Date(Math.floor(at / 1000) * 1000 + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
const compactCst = (at: number) => cst(at).slice(0, 19).replace(/[-T:]/g, "");

export const newPrepayId = (at: number) => `wx${compactCst(at)}${randomHex(20)}`;
export const newTransactionId = (at: number) => `4200${compactCst(at).slice(0, 8)}${randomDigits(16)}`;
export const newRefundId = () => `50${randomDigits(27)}`;

/** JSON with sorted keys: the fingerprint that tells an identical repeated request from a different one. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
