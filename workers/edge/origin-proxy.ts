import { captureException } from "./error-reporting";
import { errorAnswer } from "./api-answer";
import { readApiBody } from "./request-body";

/** How long the edge waits for the origin's response headers (issue #2). */
export const originTimeoutMs = 10_000;

/**
 * Where the origin is, and the credential the edge presents to it: `EDGE_SECRET`, a secret
 * both workers share (docs/decisions/011-origin-trusts-the-edge.md). Unset, the origin
 * trusts only requests that reach it over the service binding.
 */
export type OriginTarget = { ORIGIN?: Fetcher; ORIGIN_URL?: string; EDGE_SECRET?: string };

/** The header the origin reads the edge's credential from (workers/origin/src/http/edge-trust.ts). */
const edgeSecretHeader = "x-edge-secret";

// RFC 9110 §7.6.1: connection-specific headers never cross a proxy.
const hopByHopHeaders = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];
// Set by us from Cloudflare's view of the client; a client's own values are not to be trusted.
const clientSuppliedForwardingHeaders = [
  "x-forwarded-for",
  "x-real-ip",
  "x-request-id",
  "forwarded",
  "host",
  "x-client-place",
  edgeSecretHeader,
];

/**
 * Cloudflare's own headers describe the request that reached the edge, and one of them
 * (CF-Connecting-IP) tells the origin a request came from the internet: none crosses to the
 * origin but Cloudflare Access's assertion, which the origin checks in front of /api/ops/*
 * when Access is configured (workers/origin/src/ops/access-check.ts). Only the team's keys
 * can sign one, so a client's own is refused there like a missing one.
 */
const accessAssertionHeader = "cf-access-jwt-assertion";

/**
 * Roughly where the client is, from Cloudflare's view of it (city, region, country): the
 * origin shows it beside a person's sessions (docs/decisions/024-account-safety.md).
 */
function clientPlace(cf: IncomingRequestCfProperties | undefined): string | null {
  if (!cf) return null;
  const parts = [cf.city, cf.region, cf.country].filter((part): part is string => typeof part === "string" && part.trim() !== "");
  // Percent-encoded: a header value is Latin-1, a city name may not be (São Paulo, 上海).
  return parts.length ? encodeURIComponent(parts.join(", ").slice(0, 160)) : null;
}

function withoutHopByHop(source: Headers): Headers {
  const headers = new Headers(source);
  const listed = (source.get("connection") ?? "").split(",").map((name) => name.trim().toLowerCase());
  for (const name of [...hopByHopHeaders, ...listed]) if (name) headers.delete(name);
  return headers;
}

function originRequestHeaders(request: Request, requestId: string, edgeSecret: string | undefined): Headers {
  const headers = withoutHopByHop(request.headers);
  for (const name of clientSuppliedForwardingHeaders) headers.delete(name);
  for (const name of [...headers.keys()]) if (name.startsWith("cf-") && name !== accessAssertionHeader) headers.delete(name);
  const clientIp = request.headers.get("cf-connecting-ip");
  if (clientIp) {
    headers.set("X-Forwarded-For", clientIp);
    headers.set("X-Real-IP", clientIp);
  }
  const place = clientPlace(request.cf as IncomingRequestCfProperties | undefined);
  if (place) headers.set("X-Client-Place", place);
  headers.set("X-Request-Id", requestId);
  if (edgeSecret) headers.set(edgeSecretHeader, edgeSecret);
  return headers;
}

class OriginTimeout extends Error {
  override name = "OriginTimeout";
}

/**
 * Passes an `/api/*` request to the origin (the ORIGIN service binding when bound,
 * else ORIGIN_URL) and its answer back. API answers are personal: never cached.
 */
export async function proxyToOrigin(
  request: Request,
  target: OriginTarget,
  { timeoutMs = originTimeoutMs, requestId = crypto.randomUUID() }: { timeoutMs?: number; requestId?: string } = {},
): Promise<Response> {
  const incoming = new URL(request.url);
  const originBase = target.ORIGIN ? "https://origin.internal" : target.ORIGIN_URL;
  if (!originBase) {
    captureException(new Error("Neither the ORIGIN service binding nor ORIGIN_URL is configured."));
    return errorAnswer("ORIGIN_UNAVAILABLE", "The service is not reachable right now. Please try again later.");
  }
  const url = new URL(incoming.pathname + incoming.search, originBase);

  // The body arrives in full before the origin is asked: a client's stalled, short or
  // oversized body is answered here (408, 400, 413), never as the origin's time-out.
  const body = await readApiBody(request);
  if (!body.ok) {
    body.answer.headers.set("X-Request-Id", requestId);
    return body.answer;
  }

  // Only the wait for the response headers is bounded; a slow answer body keeps streaming.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new OriginTimeout(`No answer from the origin within ${timeoutMs} ms`)), timeoutMs);
  const forwarded = new Request(url, {
    method: request.method,
    headers: originRequestHeaders(request, requestId, target.EDGE_SECRET),
    body: body.bytes,
    redirect: "manual",
    signal: abort.signal,
  });

  let answer: Response;
  try {
    answer = await (target.ORIGIN ? target.ORIGIN.fetch(forwarded) : fetch(forwarded));
  } catch (error) {
    const timedOut = abort.signal.aborted && abort.signal.reason instanceof OriginTimeout;
    captureException(timedOut ? abort.signal.reason : error, { tags: { requestId, path: incoming.pathname } });
    return timedOut
      ? errorAnswer("ORIGIN_TIMEOUT", "The service took too long to answer. Please try again.", { "X-Request-Id": requestId })
      : errorAnswer("ORIGIN_UNAVAILABLE", "The service is not reachable right now. Please try again later.", {
          "X-Request-Id": requestId,
        });
  } finally {
    clearTimeout(timer);
  }

  // The origin answers its own failures in the contract's JSON. A 5xx that is not JSON came
  // from something in between (the origin's zone, a proxy): its page may name hosts or carry
  // a trace, so the visitor hears the contract's answer instead, and Sentry the status.
  if (answer.status >= 500 && !answer.headers.get("Content-Type")?.startsWith("application/json")) {
    await answer.body?.cancel();
    captureException(new Error(`The origin answered ${answer.status} without the contract's JSON`), {
      tags: { requestId, path: incoming.pathname },
    });
    return errorAnswer("ORIGIN_UNAVAILABLE", "The service is not reachable right now. Please try again later.", {
      "X-Request-Id": requestId,
    });
  }

  const headers = withoutHopByHop(answer.headers);
  headers.set("Cache-Control", "no-store");
  headers.set("X-Request-Id", requestId);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
