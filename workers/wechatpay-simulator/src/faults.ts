/** Injected faults on /v3 calls (and /sns ones): which one the next matching call takes, and what a failed call answers. */
import type { Answer } from "./answers";
import type { SimulatorCore } from "./core";
import type { SimFault } from "./state";

/** How long a `timeout` fault holds the answer when it names no `delayMs`. */
export const defaultTimeoutDelayMs = 30_000;

export function takeFault(core: SimulatorCore, method: string, pathname: string): SimFault | undefined {
  const fault = core.state.faults.find(
    (candidate) =>
      candidate.remaining > 0 &&
      (!candidate.method || candidate.method === method) &&
      (!candidate.path || pathname.startsWith(candidate.path)),
  );
  if (fault) {
    fault.remaining -= 1;
    core.state.faults = core.state.faults.filter((candidate) => candidate.remaining > 0);
  }
  return fault;
}

export function faultAnswer(fault: SimFault): Answer {
  const status = fault.kind === "timeout" ? 504 : (fault.status ?? 500);
  const code =
    fault.code ??
    (status === 429 ? "FREQUENCY_LIMITED" : status === 500 ? "SYSTEM_ERROR" : status >= 502 ? "SERVICE_UNAVAILABLE" : "INVALID_REQUEST");
  const message = fault.message ?? (status === 429 ? "频率超限" : status >= 500 ? "系统异常，请稍后重试" : "无效请求");
  return { status, body: { code, message }, signed: false };
}
