/**
 * Cloudflare Access in front of the back office's pages, as the origin has it in front of
 * /api/ops/* (docs/decisions/012-operators-and-audit.md): with ACCESS_TEAM_DOMAIN and
 * ACCESS_AUD set, a page under /ops is served only with a Cf-Access-Jwt-Assertion that the
 * team's keys signed, issued by the team, for this application and unexpired. jose is
 * loaded only when the check is configured, so a deploy without it does not pay for it.
 */
import type { JWTVerifyGetKey } from "jose";

/** Where a team publishes its signing keys; tests pass a local key set. */
export type AccessKeys = (teamDomain: string) => JWTVerifyGetKey;

export type AccessEnv = { ACCESS_TEAM_DOMAIN?: string; ACCESS_AUD?: string };

/**
 * Whether a path reaches the back office's pages. React Router matches a path decoded and in
 * any letter case, so `/OPS/people` and `/%6Fps/people` render the same screens as
 * `/ops/people`, and `/ops.data` is the index's data: the gate, the no-store and the noindex
 * must hold for them too. Leading slashes beyond the first are read as one, to err on the
 * gate's side.
 */
function isBackOfficePath(pathname: string): boolean {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: React Router cannot decode it either; the path is read as it came.
  }
  return /^\/+ops(?:[/\\]|\.data$|$)/i.test(path);
}

/**
 * Whether a request reaches the back office: its own pages, and the two doors that name
 * pages in their query — one route's server loader data (`/__serverLoader?url=`) and React
 * Router's lazy route discovery (`/__manifest?paths=`, which lists routes and their chunks).
 */
export function reachesBackOffice(url: URL): boolean {
  if (isBackOfficePath(url.pathname)) return true;
  if (url.pathname === "/__serverLoader") {
    const page = url.searchParams.get("url");
    if (page === null) return false;
    try {
      return isBackOfficePath(new URL(page, url.origin).pathname);
    } catch {
      return false;
    }
  }
  if (url.pathname === "/__manifest") {
    // React Router reads a path without its leading slash as if it had one (`paths=ops`).
    const named = url.searchParams.getAll("paths").flatMap((paths) => paths.split(","));
    return named.some((path) => isBackOfficePath(path.startsWith("/") ? path : `/${path}`));
  }
  return false;
}

function accessCookie(cookies: string | null): string | null {
  return cookies ? (/(?:^|;\s*)CF_Authorization=([^;\s]+)/.exec(cookies)?.[1] ?? null) : null;
}

// One key set per team per isolate: jose caches the keys it fetched and refetches on a new kid.
const remoteKeySets = new Map<string, JWTVerifyGetKey>();

/** The doors that name back-office pages in their query (`reachesBackOffice`), which Access's application does not cover. */
const queryDoors = new Set(["/__serverLoader", "/__manifest"]);

export async function accessAllows(request: Request, env: AccessEnv, keysOf?: AccessKeys): Promise<boolean> {
  const teamDomain = env.ACCESS_TEAM_DOMAIN;
  const audience = env.ACCESS_AUD;
  if (!teamDomain || !audience) return true;
  // Access adds its header to requests for the application's own paths (/ops), and there
  // only the header proves that Access checked this very request. The query doors are not
  // its paths: there the operator's browser sends Access's cookie, which holds the same kind
  // of token, verified the same way.
  const onQueryDoor = queryDoors.has(new URL(request.url).pathname);
  const token = request.headers.get("Cf-Access-Jwt-Assertion") ?? (onQueryDoor ? accessCookie(request.headers.get("Cookie")) : null);
  if (!token) return false;
  const { createRemoteJWKSet, jwtVerify } = await import("jose");
  let keys = keysOf?.(teamDomain) ?? remoteKeySets.get(teamDomain);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(`https://${teamDomain}/cdn-cgi/access/certs`));
    remoteKeySets.set(teamDomain, keys);
  }
  try {
    await jwtVerify(token, keys, { issuer: `https://${teamDomain}`, audience, algorithms: ["RS256"] });
    return true;
  } catch {
    return false;
  }
}
