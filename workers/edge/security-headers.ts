// Nonces are cut from a pool of random bytes drawn for 64 responses at a time: one call to
// the CSPRNG and one base64 encoding then serve 64 pages (docs/decisions/034-lighter-edge.md).
// 18 bytes (144 bits) are exactly 24 base64 characters, so each nonce is a whole slice of the
// pool's encoding, without padding. Each slice is handed out once.
const nonceBytes = 18;
const nonceChars = 24;
const noncesPerPool = 64;
const pool = new Uint8Array(nonceBytes * noncesPerPool);
let poolText = "";
let poolUsed = noncesPerPool;

/** A fresh 144-bit nonce for the scripts of one response, in base64. */
export function createNonce(): string {
  if (poolUsed === noncesPerPool) {
    poolText = btoa(String.fromCharCode(...crypto.getRandomValues(pool)));
    poolUsed = 0;
  }
  const at = poolUsed * nonceChars;
  poolUsed += 1;
  return poolText.slice(at, at + nonceChars);
}

function originOf(dsn: string | undefined): string | null {
  if (!dsn) return null;
  try {
    return new URL(dsn).origin;
  } catch {
    return null;
  }
}

/**
 * The page CSP. Scripts run only with this response's nonce (React Router's inline
 * hand-off and module scripts, React's streaming scripts) or from our own origin.
 */
function contentSecurityPolicy(nonce: string, sentryDsn?: string, devServer = false): string {
  const sentry = originOf(sentryDsn);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Pages inline their styles under the nonce (app/root.tsx); Vite's dev server also
    // injects stylesheets as <style> elements of its own.
    devServer ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${sentry ? ` ${sentry}` : ""}`,
    // Sentry session replay compresses in a worker started from a blob.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The policy is the same text for every response but its nonce: it is built once per
 * Sentry DSN and cut around a marker (a nonce is base64, so it never contains `*`), and
 * each response joins the cut with its own nonce.
 */
const nonceMarker = "*nonce*";
let policyCut: { sentryDsn: string | undefined; pieces: string[] } | null = null;

function policyFor(nonce: string, sentryDsn: string | undefined): string {
  if (!policyCut || policyCut.sentryDsn !== sentryDsn) {
    policyCut = { sentryDsn, pieces: contentSecurityPolicy(nonceMarker, sentryDsn, import.meta.env.DEV).split(nonceMarker) };
  }
  return policyCut.pieces.join(nonce);
}

/** Headers every answer of the edge carries; `nonce` marks an HTML page. */
export function applySecurityHeaders(
  headers: Headers,
  { https, nonce, sentryDsn }: { https: boolean; nonce?: string; sentryDsn?: string },
): void {
  if (nonce !== undefined) headers.set("Content-Security-Policy", policyFor(nonce, sentryDsn));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), usb=(), browsing-topics=()");
  if (https) headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
}
