import { createMiddleware } from "hono/factory";
import type { OriginEnv } from "../origin-env";
import { signedByWechatPay } from "../wechat-pay/notify/notify-paths";
import { ApiError } from "./answer";

// A secret, so `wrangler types` (which reads only wrangler.toml here) cannot know it.
declare global {
  interface Env {
    /** Shared with the edge worker, which presents it on every request it forwards (32+ characters). */
    EDGE_SECRET?: string;
  }
}

/** The header the edge presents its credential in (workers/edge/origin-proxy.ts sets it). */
export const edgeSecretHeader = "X-Edge-Secret";

const encoder = new TextEncoder();

function sameSecret(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}

/** A secret shorter than this is treated as unset (docs/decisions/011-origin-trusts-the-edge.md). */
const minimumSecretLength = 32;

/**
 * Whether a request came from the edge worker (docs/decisions/011-origin-trusts-the-edge.md):
 * with `EDGE_SECRET` set, when it presents that secret; without it, when it did not come from
 * the internet, which Cloudflare marks on every such request with `CF-Connecting-IP` (a
 * client cannot set it; the edge drops it, with every `cf-*` header but Access's assertion,
 * before forwarding).
 */
function cameFromEdge(header: (name: string) => string | undefined, secret: string | undefined): boolean {
  if (secret !== undefined && secret.length >= minimumSecretLength) return sameSecret(header(edgeSecretHeader) ?? "", secret);
  return header("CF-Connecting-IP") === undefined;
}

/** The edge's percent-encoded `X-Client-Place` (workers/edge/origin-proxy.ts), bounded; null when absent or malformed. */
function placeOf(encoded: string | undefined): string | null {
  if (!encoded) return null;
  try {
    const place = decodeURIComponent(encoded).replace(/\p{C}/gu, "").trim();
    return place ? [...place].slice(0, 160).join("") : null;
  } catch {
    return null;
  }
}

/**
 * The origin answers only the edge, except WeChat Pay's signed notifications. It believes a
 * forwarded client address (`X-Real-IP`, which the edge sets from Cloudflare's view of the
 * client) only from the edge; otherwise the address is Cloudflare's `CF-Connecting-IP`.
 */
export const edgeOnly = createMiddleware<OriginEnv>(async (c, next) => {
  const header = (name: string) => c.req.header(name);
  const fromEdge = cameFromEdge(header, c.env.EDGE_SECRET);
  if (!fromEdge && !signedByWechatPay.has(c.req.path)) {
    throw new ApiError("EDGE_REQUIRED", "This API answers only through Paydesk's own site.");
  }
  const address = (fromEdge ? (header("X-Real-IP") ?? header("CF-Connecting-IP")) : header("CF-Connecting-IP"))?.trim();
  c.set("clientIp", address || null);
  c.set("clientPlace", fromEdge ? placeOf(header("X-Client-Place")) : null);
  await next();
});
