/**
 * The door of the imitated /v3 API: it authenticates a request, applies an injected fault,
 * hands the request to the route that matches, signs the answer and logs the call.
 */
import { type Answer, type ApiRoute, errorAnswer } from "./answers";
import type { SimulatorCore } from "./core";
import { defaultTimeoutDelayMs, faultAnswer, takeFault } from "./faults";
import { authenticate } from "./request-authentication";
import { answerKeyChoice, signatureHeaders } from "./signing";
import { randomHex } from "./sim-crypto";
import type { FaultKind, SimFault } from "./state";
import { containsNull } from "./validation";

const requestLogSize = 200;

export async function dispatchApi(core: SimulatorCore, routes: readonly ApiRoute[], request: Request, url: URL): Promise<Response> {
  const raw = await request.text();
  const method = request.method.toUpperCase();
  const path = url.pathname + url.search;
  const log = (status: number, fault?: FaultKind) => logRequest(core, { method, path, status, ...(fault ? { fault } : {}) });

  const authenticated = await authenticate(core, request, method, path, raw);
  if ("refusal" in authenticated) {
    log(authenticated.refusal.status);
    return respond(core, authenticated.refusal, request, undefined);
  }

  const fault = takeFault(core, method, url.pathname);
  const afterCommit = fault?.afterCommit ?? fault?.kind === "timeout";
  if (fault && !afterCommit && (fault.kind === "status" || fault.kind === "timeout")) {
    if (fault.kind === "timeout") await core.sleep(fault.delayMs ?? defaultTimeoutDelayMs);
    const answer = faultAnswer(fault);
    log(answer.status, fault.kind);
    return respond(core, answer, request, undefined);
  }

  const answer = await answerSafely(core, routes, { method, url, raw, mchid: authenticated.mchid });

  if (fault && afterCommit && fault.kind === "status") {
    const faulty = faultAnswer(fault);
    log(faulty.status, fault.kind);
    return respond(core, faulty, request, undefined);
  }
  if (fault?.kind === "timeout") {
    await core.settled();
    await core.options.persist?.();
    await core.sleep(fault.delayMs ?? defaultTimeoutDelayMs);
  }
  log(answer.status, fault?.kind);
  return respond(core, fault?.kind === "misreport_refund" ? misreported(answer, fault.refundAmount) : answer, request, fault);
}

/**
 * A refund's answer stating another refund amount than the refund's, signed like any answer:
 * what the merchant sees if WeChat Pay's figures ever do not add up. Its state is unchanged.
 */
function misreported(answer: Answer, refundAmount: number | undefined): Answer {
  const body = answer.body as { amount?: { refund?: number } } | null;
  if (refundAmount === undefined || !body?.amount || body.amount.refund === undefined) return answer;
  return { ...answer, body: { ...body, amount: { ...body.amount, refund: refundAmount } } };
}

function logRequest(core: SimulatorCore, entry: { method: string; path: string; status: number; fault?: FaultKind }): void {
  core.state.requests.push({ at: core.now(), ...entry });
  if (core.state.requests.length > requestLogSize) core.state.requests.shift();
}

/** A request that passed authentication, still to be routed. */
type AuthenticatedCall = { method: string; url: URL; raw: string; mchid: string };

async function answerSafely(core: SimulatorCore, routes: readonly ApiRoute[], call: AuthenticatedCall): Promise<Answer> {
  try {
    return await route(core, routes, call);
  } catch (caught) {
    console.error("WeChat Pay simulator failed", caught);
    return { status: 500, body: { code: "SYSTEM_ERROR", message: "系统异常，请稍后重试" }, signed: false };
  }
}

async function route(core: SimulatorCore, routes: readonly ApiRoute[], { method, url, raw, mchid }: AuthenticatedCall): Promise<Answer> {
  const body = method === "POST" ? parseBody(raw, mchid) : { value: undefined };
  if ("refusal" in body) return body.refusal;
  for (const candidate of routes) {
    const match = candidate.method === method ? candidate.path.exec(url.pathname) : null;
    if (match) return candidate.answer(core, { mchid, url, body: body.value, param: decodeURIComponent(match[1] ?? "") });
  }
  return errorAnswer(404, "NOT_FOUND", "请求的资源不存在");
}

function parseBody(raw: string, mchid: string): { value: unknown } | { refusal: Answer } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { refusal: errorAnswer(400, "PARAM_ERROR", "请求体不是有效的JSON") };
  }
  if (containsNull(value)) return { refusal: errorAnswer(400, "PARAM_ERROR", "参数不能为null") };
  const bodyMchid = (value as { mchid?: unknown }).mchid;
  if (bodyMchid !== undefined && bodyMchid !== mchid) {
    return { refusal: errorAnswer(400, "INVALID_REQUEST", "请求中的mchid与Authorization中的mchid不一致") };
  }
  return { value };
}

async function respond(core: SimulatorCore, answer: Answer, request: Request, fault: SimFault | undefined): Promise<Response> {
  const text = answer.body === null ? "" : JSON.stringify(answer.body);
  const headers: Record<string, string> = { "Request-ID": randomHex(32).toUpperCase() };
  if (text) headers["Content-Type"] = "application/json; charset=utf-8";
  if (answer.signed && fault?.kind !== "unsigned") {
    Object.assign(headers, await signatureHeaders(core, text, answerKeyChoice(core, request.headers.get("Wechatpay-Serial")), fault));
  }
  // A body changed after signing, as a meddling proxy would.
  const sent = fault?.kind === "tamper_body" && text ? text.replace(/}$/, " }") : text;
  return new Response(answer.status === 204 ? null : sent, { status: answer.status, headers });
}
