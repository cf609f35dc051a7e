/**
 * The headers a worker chose for an answer, as `[name, value]` pairs: what the bench's stand-ins
 * for Paydesk (the floor worker, the anchor's twin of /help) answer with, so that they give the
 * same answer as Paydesk's edge and only the answerer differs. Under wrangler dev each header
 * costs every hop it passes (docs/decisions/042-the-floor-answers-the-page-headers.md).
 */

/**
 * Headers of one connection, not of the answer (RFC 9110 §7.6.1): no worker chooses them, and
 * the bench's compressing proxy never passes them on (HTTP/2 refuses them).
 */
export const connectionHeaders = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);

/** Those, and the headers of the body's framing: what a worker does not choose. */
const transportHeaders = new Set([...connectionHeaders, "content-encoding", "content-length", "date"]);

export function chosenHeaders(headers: Iterable<[string, string]>): [string, string][] {
  // `MF-*`: Miniflare's own, on an answer read through `dispatchFetch` (bench/build-anchors.ts).
  return [...headers].filter(([name]) => !transportHeaders.has(name.toLowerCase()) && !/^mf-/i.test(name));
}

/**
 * The same headers with the content security policy sent report-only: for the anchor's twin,
 * whose own scripts do not carry the nonce Paydesk's policy names. The browser then has the
 * same policy to read and blocks nothing.
 */
export function policyReportOnly(headers: [string, string][]): [string, string][] {
  return headers.map(([name, value]) => [
    name.toLowerCase() === "content-security-policy" ? "Content-Security-Policy-Report-Only" : name,
    value,
  ]);
}
