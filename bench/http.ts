/**
 * Single requests the benches make beside the loads: sample answers to check, start-up
 * polls. Each has a time-out, so that a server that hangs fails the bench instead of
 * stalling it until the watchdog.
 */

import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";

/** The app's API envelope, when the body is JSON. */
export type ApiJson = { code?: string; data?: Record<string, unknown>; message?: string };

export type Answer = { status: number; headers: Headers; body: string; json: ApiJson | null };

/**
 * An origin served on its own answers only the edge (workers/origin/src/http/edge-trust.ts):
 * the bench presents the edge's credential to it, as the edge worker would.
 */
const edgeCredentials = new Map<string, Record<string, string>>();

export function presentAsEdge(baseUrl: string, edgeSecret: string): void {
  edgeCredentials.set(new URL(baseUrl).origin, { "X-Edge-Secret": edgeSecret });
}

/** The headers every request to `url` carries besides its own. */
export function credentialFor(url: string): Record<string, string> {
  return edgeCredentials.get(new URL(url).origin) ?? {};
}

export async function request(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Answer> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(credentialFor(url))) headers.set(name, value);
  const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
  const body = await response.text();
  let json: ApiJson | null = null;
  try {
    json = JSON.parse(body) as ApiJson;
  } catch {
    // not JSON: left null, the checks say so
  }
  return { status: response.status, headers: response.headers, body, json };
}

/**
 * A GET to a server of the bench's own that may speak HTTPS with the bench's throwaway
 * certificate (bench/local-certificate.ts): trusted as `ca`, nothing else is. fetch cannot be
 * given a certificate to trust.
 */
export function getTrusting(
  url: string,
  headers: Record<string, string>,
  ca?: string,
  timeoutMs = 10_000,
): Promise<{ status: number; body: string }> {
  const get = url.startsWith("https:") ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const req = get(url, { headers, ca, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${url} did not answer within ${timeoutMs} ms`)));
    req.on("error", reject);
  });
}
