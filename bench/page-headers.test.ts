import { describe, expect, it } from "vitest";
import { chosenHeaders, policyReportOnly } from "./page-headers.ts";

describe("a page's own headers", () => {
  const answer = new Headers([
    ["Content-Type", "text/html; charset=utf-8"],
    ["Transfer-Encoding", "chunked"],
    ["Content-Security-Policy", "script-src 'self' 'nonce-abc'"],
    ["Content-Length", "33987"],
    ["Date", "Thu, 26 Nov 2026 06:00:00 GMT"],
    ["Connection", "keep-alive"],
    ["Keep-Alive", "timeout=5"],
    ["Content-Encoding", "br"],
    ["MF-Content-Encoding", "gzip"],
    ["Vary", "Cookie, Accept-Language"],
  ]);

  it("are those the worker chose, without the hop's, the framing's or Miniflare's", () => {
    expect(chosenHeaders(answer)).toEqual([
      ["content-security-policy", "script-src 'self' 'nonce-abc'"],
      ["content-type", "text/html; charset=utf-8"],
      ["vary", "Cookie, Accept-Language"],
    ]);
  });

  it("keep their policy, report-only, for a page whose scripts do not carry its nonce", () => {
    expect(policyReportOnly(chosenHeaders(answer))).toEqual([
      ["Content-Security-Policy-Report-Only", "script-src 'self' 'nonce-abc'"],
      ["content-type", "text/html; charset=utf-8"],
      ["vary", "Cookie, Accept-Language"],
    ]);
  });
});
