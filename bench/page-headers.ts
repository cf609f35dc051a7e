/**
 * The headers a worker chose for an answer, as `[name, value]` pairs: what the bench's stand-ins
 * for Paydesk (the floor worker, the anchor's twin of /help) answer with, so that they give the
 * same answer as Paydesk's edge and only the answerer differs. Under wrangler dev each header
 * costs every hop it passes (docs/decisions/042-the-floor-answers-the-page-headers.md).
 */

/** Headers of one hop, or of the body's framing, which a worker does not choose. */
const transportHeaders = new Set(["connection", "content-encoding", "content-length", "date", "keep-alive", "transfer-encoding"]);

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
